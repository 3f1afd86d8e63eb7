import { formatTable } from '../format-table.js';
import { CAPABILITIES, CAPABILITY_LABEL } from './check-steps.js';
import type { CheckResult } from './run-check.js';

const CELL = { ok: 'ok', failed: 'FAILED', skipped: 'skipped' } as const;

/** The table of what works (capabilities down, protocols across), why each failure failed, and the diagnoses. */
export function formatCheck(result: CheckResult): string {
  const cell = (protocol: string, capability: string) => {
    const step = result.steps.find((entry) => entry.protocol === protocol && entry.capability === capability);
    return step === undefined ? '' : CELL[step.status];
  };
  const table = formatTable(
    ['', ...result.protocols],
    CAPABILITIES.map((capability) => [CAPABILITY_LABEL[capability], ...result.protocols.map((protocol) => cell(protocol, capability))]),
  );
  const failures = result.steps
    .filter((step) => step.status === 'failed')
    .map((step) => `  ${step.protocol} ${CAPABILITY_LABEL[step.capability]}: ${step.detail ?? ''}`);
  const lines = [
    `\nBase URL: ${result.baseUrl.used}${result.baseUrl.used === result.baseUrl.given ? '' : ` (given: ${result.baseUrl.given})`}   Model: ${result.model}\n`,
    table,
  ];
  if (failures.length > 0) lines.push(`Failures:\n${failures.join('\n')}\n`);
  if (result.diagnoses.length > 0) lines.push(`Problems:\n${result.diagnoses.map((diagnosis) => `  - ${diagnosis.message}`).join('\n')}\n`);
  const passed = result.steps.filter((step) => step.status === 'ok').length;
  lines.push(result.ok ? `All ${passed} checks passed.\n` : `${passed} of ${result.steps.length} checks passed.\n`);
  return lines.join('\n');
}
