import { cliOptions } from './cli-flags.js';

// A public id is 16 base64url characters; keys made before ids were kept from starting with `-`
// have 1 in 64 that do, and `parseArgs` reads `-BiSnh…` as the options -B -i -S….
const dashPublicId = /^-[A-Za-z0-9_-]{15}$/;
const knownFlags = new Set(Object.keys(cliOptions).map((name) => `--${name}`));
const valueFlags = new Set(
  Object.entries(cliOptions)
    .filter(([, option]) => option.type === 'string')
    .map(([name]) => `--${name}`),
);

/**
 * `argv` with every word shaped like a public id that starts with `-` read as a word, not an option:
 * after a flag that takes a value it joins it (`--key -Bx…` → `--key=-Bx…`); elsewhere it moves
 * past a `--`, where `parseArgs` takes it as a positional (only `keys revoke ID` takes one).
 */
export function escapeDashPublicIds(argv: readonly string[]): string[] {
  const end = argv.indexOf('--');
  const options = end === -1 ? [...argv] : argv.slice(0, end);
  const afterEnd = end === -1 ? [] : argv.slice(end + 1);
  const kept: string[] = [];
  const ids: string[] = [];
  for (const word of options) {
    if (!dashPublicId.test(word) || knownFlags.has(word)) {
      kept.push(word);
      continue;
    }
    const previous = kept.at(-1);
    if (previous !== undefined && valueFlags.has(previous)) kept[kept.length - 1] = `${previous}=${word}`;
    else ids.push(word);
  }
  return ids.length === 0 && end === -1 ? kept : [...kept, '--', ...ids, ...afterEnd];
}
