import { formatCheck } from './format-check.js';
import { runCheck, type CheckOptions } from './run-check.js';

export interface CheckCommand extends CheckOptions {
  command: 'check';
  json: boolean;
}

/**
 * `switchyard check`: runs the ladder, printing progress on stderr as it goes, then the table (or,
 * with `--json`, the result) on stdout. Exit code 0 only when everything asked for worked.
 */
export async function runCheckCommand(
  command: CheckCommand,
  write: (text: string) => void = (text) => void process.stdout.write(text),
): Promise<number> {
  const result = await runCheck(command, (line) => void process.stderr.write(`${line}\n`));
  write(command.json ? `${JSON.stringify(result, null, 2)}\n` : formatCheck(result));
  return result.ok ? 0 : 1;
}
