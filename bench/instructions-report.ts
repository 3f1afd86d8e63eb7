// The table of `npm run bench -- --instructions`: instructions per request for each path, answer
// and configuration, with the ratio to the first configuration (the passthrough) on the same row.
import type { InstructionConfiguration } from './instruction-configurations.js';
import { MAX_WINDOWS, STEADY_JIT_SHARE, type InstructionRow } from './instructions.js';

export interface InstructionRunFacts {
  date: string;
  node: string;
  valgrind: string;
  nodeFlags: string[];
  warmup: number;
  requests: number;
  connections: number;
  minutes: number;
  /** valgrind's cache options, when the caches were simulated (`--cache-sim`). */
  simulatedCaches?: readonly string[];
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
const describeAnswer = (stream: boolean) => (stream ? '50-chunk stream' : 'JSON');

export function renderInstructionTable(
  rows: readonly InstructionRow[],
  configurations: readonly InstructionConfiguration[],
  facts: InstructionRunFacts,
): string {
  const baseline = configurations[0]?.name;
  const baselineOf = (row: InstructionRow) =>
    rows.find((other) => other.configuration === baseline && other.path === row.path && other.stream === row.stream);
  // Grouped by path and answer, configurations in their list's order.
  const order = (row: InstructionRow) => configurations.findIndex((configuration) => configuration.name === row.configuration);
  const paths = [...new Set(rows.map((row) => row.path))];
  const sorted = [...rows].sort(
    (a, b) => paths.indexOf(a.path) - paths.indexOf(b.path) || Number(a.stream) - Number(b.stream) || order(a) - order(b),
  );
  const withCache = rows.some((row) => row.cache !== undefined);
  const count = (value: number) => Math.round(value).toLocaleString('en-US');
  const cacheColumns = (row: InstructionRow, base: InstructionRow | undefined) => {
    if (row.cache === undefined) return ' | | | |';
    const ratio =
      base?.cache === undefined || row.configuration === baseline
        ? ''
        : `${(row.cache.estimatedCycles / base.cache.estimatedCycles).toFixed(2)}×`;
    return ` ${count(row.cache.firstLevelMisses)} | ${count(row.cache.lastLevelMisses)} | ${count(row.cache.estimatedCycles)} | ${ratio} |`;
  };
  const lines = [
    `Instructions per request, ${facts.date}, Node ${facts.node} (${facts.nodeFlags.join(' ')}) under ${facts.valgrind} --tool=callgrind: ` +
      `${facts.requests} requests per row (${facts.connections === 1 ? 'one at a time' : `${facts.connections} connections, one request at a time on each`}) after ${facts.warmup} warm-up requests per path and answer; V8's compilers and old-generation GC left out (their shares of the window shown; a window with over ${STEADY_JIT_SHARE * 100} % of JIT compile is counted again, ${MAX_WINDOWS} windows at most, and the last kept); ${facts.minutes.toFixed(1)} minutes.` +
      (withCache
        ? ` Caches simulated (${(facts.simulatedCaches ?? []).join(' ')}): misses of the first level (instructions and data) and of the last (a core's own 1 MB); estimated cycles = instructions + 10 × first-level misses + 100 × last-level misses (KCachegrind's estimate, without branches).`
        : ''),
    '',
    `| path | answer | configuration | instructions/request | vs passthrough | left out: JIT compile | left out: old-gen GC |${withCache ? ' L1 misses/request | last-level misses/request | estimated cycles/request | cycles vs passthrough |' : ''}`,
    `|---|---|---|---|---|---|---|${withCache ? '---|---|---|---|' : ''}`,
    ...sorted.map((row) => {
      const base = baselineOf(row);
      const ratio = base === undefined || row.configuration === baseline ? '' : `${(row.perRequest / base.perRequest).toFixed(2)}×`;
      return `| ${row.path} | ${describeAnswer(row.stream)} | ${row.configuration} | ${count(row.perRequest)} | ${ratio} | ${percent(row.compileShare)} | ${percent(row.gcShare)} |${withCache ? cacheColumns(row, base) : ''}`;
    }),
    '',
    ...configurations.map((configuration) => {
      const stages = rows.find((row) => row.configuration === configuration.name)?.stages;
      return `- \`${configuration.name}\`: ${configuration.description}${stages === undefined ? '' : ` — stages: ${stages.split(',').join(' → ')}`}`;
    }),
  ];
  return lines.join('\n');
}
