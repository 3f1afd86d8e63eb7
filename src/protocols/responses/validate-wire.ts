import type { z } from 'zod';
import { GatewayError } from '../../canonical/index.js';

export type WirePath = readonly (string | number)[];

type Issue = z.core.$ZodIssue;

/** `['input', 2, 'content']` → `input[2].content`, the way the wire names a field. */
export function formatResponsesWirePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/** Descends into a union error when one branch got further than the shape check. */
function deepestIssue(issue: Issue): { issue: Issue; path: PropertyKey[] } {
  if (issue.code === 'invalid_union') {
    for (const branch of issue.errors) {
      const first = branch[0];
      if (first !== undefined && first.path.length > 0) {
        const inner = deepestIssue(first);
        return { issue: inner.issue, path: [...issue.path, ...inner.path] };
      }
    }
  }
  return { issue, path: [...issue.path] };
}

function describeIssue(issue: Issue): string {
  const message = issue.message.replace(/^Invalid input: /, '');
  if (issue.code === 'invalid_type' && message.endsWith('received undefined')) {
    return `is required (${message.replace(/, received undefined$/, '')})`;
  }
  return message;
}

/** A 400 `INVALID_REQUEST_BODY` naming the wire field at fault. */
export function createResponsesInvalidBodyError(path: readonly PropertyKey[], detail: string): GatewayError {
  const param = formatResponsesWirePath(path);
  return new GatewayError({
    code: 'INVALID_REQUEST_BODY',
    ...(param === '' ? {} : { param }),
    message: param === '' ? `Invalid request: ${detail}.` : `Invalid request: ${param}: ${detail}.`,
  });
}

/** Validates one wire value; on failure throws a GatewayError whose `param` is `path` + the issue's path. */
export function validateResponsesWire<T extends z.ZodType>(schema: T, value: unknown, path: WirePath): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  if (first === undefined) throw createResponsesInvalidBodyError(path, 'the value is not valid');
  const { issue, path: issuePath } = deepestIssue(first);
  throw createResponsesInvalidBodyError([...path, ...issuePath], describeIssue(issue));
}
