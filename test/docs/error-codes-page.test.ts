import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorCodes, openaiErrorCode, type ErrorCode } from '../../src/canonical/index.js';

/** Where the errors table lives (README's `## Errors` section, or a whole page of its own). */
const ERRORS_DOC = 'docs/errors.md';

const root = join(import.meta.dirname, '..', '..');

/** The `## Errors` section when the file has one, else the whole file. */
function errorsSection(text: string): string {
  const start = text.search(/^## Errors$/m);
  if (start === -1) return text;
  const next = text.slice(start + 1).search(/^## /m);
  return next === -1 ? text.slice(start) : text.slice(start, start + 1 + next);
}

/** Every backquoted SNAKE_CASE (or snake_case) code in the column headed `code…` of every table. */
function documentedCodes(section: string): string[] {
  const codes: string[] = [];
  let column = -1;
  for (const line of section.split('\n')) {
    if (!line.startsWith('|')) {
      column = -1;
      continue;
    }
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (column === -1) {
      column = cells.findIndex((cell) => cell.startsWith('code'));
      continue;
    }
    if (/^-+$/.test(cells[0] ?? '')) continue;
    for (const match of (cells[column] ?? '').matchAll(/`([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)`/g)) codes.push(match[1] as string);
  }
  return codes;
}

/** The names a reader may meet a code by: the gateway's, and what an OpenAI caller sees in `error.code`. */
const namesOf = (code: ErrorCode) => new Set([code, code.toLowerCase(), openaiErrorCode(code)]);

describe(`the errors table (${ERRORS_DOC}) and the error-code registry`, () => {
  const documented = documentedCodes(errorsSection(readFileSync(join(root, ERRORS_DOC), 'utf8')));
  const registered = Object.keys(errorCodes) as ErrorCode[];

  it('should document every registered code', () => {
    expect(documented.length).toBeGreaterThan(50);
    const missing = registered.filter((code) => ![...namesOf(code)].some((name) => documented.includes(name)));
    expect(missing).toEqual([]);
  });

  it('should document no code the registry lacks', () => {
    const known = new Set(registered.flatMap((code) => [...namesOf(code)]));
    expect(documented.filter((name) => !known.has(name))).toEqual([]);
  });
});
