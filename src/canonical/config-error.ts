import { findClosestId } from './closest-id.js';
import type { ErrorCode } from './error-codes.js';
import { GatewayError } from './errors.js';

/**
 * A problem with the gateway's or a provider's configuration: a `CONFIG_*` GatewayError of kind
 * `internal`. The message says what is wrong and shows a correct value.
 */
export function configError(code: ErrorCode, message: string, cause?: unknown): GatewayError {
  // Kind `internal` even for a code the HTTP API answers with its own kind (KEY_NOT_FOUND): here it is a command's refusal, never an answer.
  return new GatewayError({ kind: 'internal', code, message, ...(cause === undefined ? {} : { cause }) });
}

/** The part of a schema issue (zod's, or any validator's) a config error names: where and what. */
export interface ConfigIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** A field's path as a reader writes it (`models[1].provider`, `server.port`); '' for the whole value. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

/** An issue message that reads as the end of a sentence about the field: "is undefined — …", "must be a port number …". */
const predicate = /^(is|must|has) /;

/**
 * The parts of a schema issue (zod's raw issue) `configIssueMessage` reads. Structural, so that
 * canonical/ does not depend on zod.
 */
export interface RawConfigIssue {
  readonly code?: string;
  readonly input?: unknown;
  readonly expected?: unknown;
  readonly origin?: unknown;
  readonly minimum?: unknown;
  readonly maximum?: unknown;
  readonly inclusive?: unknown;
  readonly values?: readonly unknown[];
  readonly keys?: readonly string[];
  /** The schema that failed; an object schema's `shape` gives the known keys. */
  readonly inst?: unknown;
}

/** A value as a message shows it: short, and a string quoted. */
function shown(value: unknown): string {
  if (typeof value === 'string') return value.length <= 40 ? `'${value}'` : `'${value.slice(0, 40)}…'`;
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : String(value);
}

const typeNames: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'a list',
};

function bound(issue: RawConfigIssue, side: 'at least' | 'at most', limit: unknown): string {
  const inclusive = issue.inclusive !== false;
  const count = Number(limit);
  switch (issue.origin) {
    case 'string':
      return side === 'at least' && count === 1 ? 'must not be empty' : `must be ${side} ${count} characters long`;
    case 'array':
    case 'set':
      return `must have ${side} ${count} item${count === 1 ? '' : 's'}`;
    default:
      return `must be ${inclusive ? side : side === 'at least' ? 'more than' : 'less than'} ${count} (got ${shown(issue.input)})`;
  }
}

/** The keys an object schema knows, read from the failed schema when it exposes its shape. */
function knownKeys(inst: unknown): string[] {
  const shape = (inst as { shape?: unknown } | undefined)?.shape;
  return typeof shape === 'object' && shape !== null ? Object.keys(shape) : [];
}

/**
 * A configuration schema issue's message as a predicate about its field — `must be a number (got
 * 'eighty')`, `is required (a string)`, `must be one of 'open', 'closed' (got 'shut')`, `has an
 * unknown field 'modles'. Did you mean 'models'?` — for zod's `error` parse option; undefined
 * keeps the schema's own message. `formatConfigIssue` puts the path in front.
 *
 * @example
 * schema.safeParse(options, { error: configIssueMessage });
 */
export function configIssueMessage(issue: RawConfigIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type': {
      const expected = typeNames[String(issue.expected)] ?? String(issue.expected);
      return issue.input === undefined ? `is required (${expected})` : `must be ${expected} (got ${shown(issue.input)})`;
    }
    case 'too_small':
      return bound(issue, 'at least', issue.minimum);
    case 'too_big':
      return bound(issue, 'at most', issue.maximum);
    case 'invalid_value': {
      const values = (issue.values ?? []).map(shown);
      return `must be ${values.length === 1 ? values[0] : `one of ${values.join(', ')}`} (got ${shown(issue.input)})`;
    }
    case 'unrecognized_keys': {
      const keys = issue.keys ?? [];
      const first = keys[0] ?? '';
      const suggestion = keys.length === 1 ? findClosestId(first, knownKeys(issue.inst)) : undefined;
      const named = keys.map((key) => `'${key.length <= 40 ? key : `${key.slice(0, 40)}…`}'`).join(', ');
      return `has ${keys.length === 1 ? 'an unknown field' : 'unknown fields'} ${named}${suggestion === undefined ? '' : `. Did you mean '${suggestion}'?`}`;
    }
    default:
      return undefined;
  }
}

/**
 * An issue as a reader says it: `server.port must be a port number 0–65535 (got 'eighty')` for a
 * message written as a predicate ("is …", "must …"), `models[1].provider: expected string` for any
 * other; `(top level)` names the whole document.
 */
export function formatConfigIssue(issue: ConfigIssue): string {
  const path = fieldPath(issue.path) || '(top level)';
  return predicate.test(issue.message) ? `${path} ${issue.message}` : `${path}: ${issue.message}`;
}

/** `text` ending in a full stop, unless it already ends a sentence ("…set?"). */
const sentence = (text: string) => (/[.?!]$/.test(text) ? text : `${text}.`);

/**
 * The config error for the first failed check of a schema: `subject` names what was checked
 * (`gateway option`, `OpenAI provider option`), the path names the field, and `example` shows a
 * correct value.
 *
 * @example
 * const parsed = schema.safeParse(options);
 * if (!parsed.success) throw configIssueError('CONFIG_PROVIDER_INVALID', 'OpenAI provider option', parsed.error.issues[0]);
 */
export function configIssueError(code: ErrorCode, subject: string, issue: ConfigIssue | undefined, example?: string): GatewayError {
  const path = issue === undefined ? '' : fieldPath(issue.path);
  const message = issue?.message ?? 'invalid value';
  const text =
    path !== '' && predicate.test(message) ? `Invalid ${subject}: ${path} ${message}` : `Invalid ${subject} '${path}': ${message}`;
  return new GatewayError({
    code,
    message: `${sentence(text)}${example === undefined ? '' : ` Example: ${example}.`}`,
    ...(path === '' ? {} : { param: path }),
    // The issue itself, so a caller can name the field from further out (`providers.<key>.…`).
    cause: { path: issue?.path ?? [], message },
  });
}
