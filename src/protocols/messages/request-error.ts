import type { z } from 'zod';
import { findClosestId, quoteCallerText } from '../../canonical/index.js';

type Issue = z.core.$ZodIssue;
type RawIssue = z.core.$ZodRawIssue;
type IssuePath = readonly PropertyKey[];

const nouns: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  record: 'an object',
  null: 'null',
};

function describeInput(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'an array';
  return typeof input === 'object' ? 'an object' : `a ${typeof input}`;
}

function listValues(values: readonly unknown[]): string {
  const shown = values.map((value) => JSON.stringify(value));
  return shown.length === 1 ? `${shown[0]}` : `one of ${shown.join(', ')}`;
}

function describeBound(issue: { origin: string; inclusive?: boolean }, bound: number | bigint, side: 'min' | 'max'): string {
  if (issue.origin === 'array') return `expected ${side === 'min' ? 'at least' : 'at most'} ${bound} item(s)`;
  if (issue.origin === 'string') {
    return side === 'min' && bound === 1
      ? 'expected a non-empty string'
      : `expected ${side === 'min' ? 'at least' : 'at most'} ${bound} character(s)`;
  }
  const sign = side === 'min' ? (issue.inclusive === false ? '>' : '≥') : issue.inclusive === false ? '<' : '≤';
  return `expected ${issue.origin === 'int' ? 'an integer' : 'a number'} ${sign} ${bound}`;
}

/** Zod error map for request bodies: says what was expected, in the wire's terms. */
export function describeRawIssue(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type': {
      const expected = nouns[issue.expected] ?? issue.expected;
      return issue.input === undefined ? `is required (expected ${expected})` : `expected ${expected}, got ${describeInput(issue.input)}`;
    }
    case 'invalid_value':
      return `expected ${listValues(issue.values)}`;
    case 'too_small':
      return describeBound(issue, issue.minimum, 'min');
    case 'too_big':
      return describeBound(issue, issue.maximum, 'max');
    case 'invalid_union':
      return Array.isArray(issue.options) && issue.options.length > 0
        ? `expected ${listValues(issue.options)}`
        : 'did not match any accepted shape';
    default:
      return undefined;
  }
}

/** A branch that failed on the value itself or on its `type` discriminator is the wrong shape, not a near miss. */
function isShapeMismatch(path: IssuePath): boolean {
  return path.length === 0 || (path.length === 1 && path[0] === 'type');
}

/**
 * The most specific failure behind an issue: inside a union, the branch that got furthest
 * into the value (earliest branch on a tie); the union's own message when every branch
 * was the wrong shape.
 */
function resolveIssue(issue: Issue): { path: IssuePath; message: string } {
  if (issue.code === 'invalid_union') {
    let best: { path: IssuePath; message: string } | undefined;
    for (const branch of issue.errors) {
      const first = branch[0];
      if (first === undefined) continue;
      const resolved = resolveIssue(first);
      if (isShapeMismatch(resolved.path)) continue;
      if (best === undefined || resolved.path.length > best.path.length) best = resolved;
    }
    if (best !== undefined) return { path: [...issue.path, ...best.path], message: best.message };
  }
  return { path: issue.path, message: issue.message };
}

/** `messages[2].content[0].source` — a path written the way the wire names it. */
export function formatIssuePath(path: IssuePath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

/** The bad field (`param`, undefined for the body itself) and a sentence for the caller. */
export function describeRequestIssue(issues: readonly Issue[]): { param: string | undefined; message: string } {
  const first = issues[0];
  if (first === undefined) return { param: undefined, message: 'Invalid request.' };
  const { path, message } = resolveIssue(first);
  const param = path.length === 0 ? undefined : formatIssuePath(path);
  const where = param ?? 'body';
  return { param, message: `Invalid request: ${where}: ${message.replace(/\.$/, '')}.` };
}

/**
 * ` The request has 'max_token': did you mean 'max_tokens'?` when the body lacks the required
 * top-level field `missing` and has a field that is no field of the API (`known`) and a near miss
 * of it; '' otherwise.
 */
export function misspeltFieldHint(body: unknown, missing: string | undefined, known: ReadonlySet<string>): string {
  if (
    missing === undefined ||
    !/^[a-z_]+$/.test(missing) ||
    typeof body !== 'object' ||
    body === null ||
    Array.isArray(body) ||
    missing in body
  )
    return '';
  const misspelt = Object.keys(body).find((field) => !known.has(field) && findClosestId(field, [missing]) === missing);
  return misspelt === undefined ? '' : ` The request has '${quoteCallerText(misspelt)}': did you mean '${missing}'?`;
}
