import type { z } from 'zod';
import { GatewayError } from '../../canonical/index.js';

interface IssueLocation {
  path: PropertyKey[];
  message: string;
}

/** `['messages', 2, 'content']` → `messages[2].content` (the way the wire names it). */
export function formatChatParam(path: readonly PropertyKey[]): string {
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`)).join('');
}

function describeMessage(issue: z.core.$ZodIssue): string {
  const message = issue.message.replace(/^Invalid (input|option): /, '');
  return message.endsWith('received undefined') ? `${message.replace(/, received undefined$/, '')} (missing)` : message;
}

/**
 * The most useful location of an issue: for a union, the branch that got furthest into the
 * value (ties go to the earlier branch); when every branch failed at the union itself,
 * the union's own message.
 */
function locateIssue(issue: z.core.$ZodIssue, prefix: readonly PropertyKey[]): IssueLocation {
  const path = [...prefix, ...issue.path];
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return { path, message: describeMessage(issue) };
  let best: IssueLocation | undefined;
  for (const branch of issue.errors) {
    const first = branch[0];
    if (first === undefined) continue;
    const location = locateIssue(first, path);
    if (best === undefined || location.path.length > best.path.length) best = location;
  }
  if (best !== undefined && best.path.length > path.length) return best;
  return { path, message: issue.message === 'Invalid input' && best !== undefined ? best.message : issue.message };
}

/** A zod failure on a Chat request body → 400 `INVALID_REQUEST_BODY` naming the wire field. */
export function createChatRequestError(error: z.ZodError): GatewayError {
  const first = error.issues[0];
  const location = first === undefined ? { path: [], message: 'invalid body' } : locateIssue(first, []);
  const param = location.path.length === 0 ? undefined : formatChatParam(location.path);
  return new GatewayError({
    code: 'INVALID_REQUEST_BODY',
    param,
    message: `Invalid request: ${param === undefined ? '' : `${param}: `}${location.message}.`,
  });
}

/** A Chat request body that is well-typed but cannot be decoded → 400 naming the wire field. */
export function createChatFieldError(param: string, detail: string): GatewayError {
  return new GatewayError({
    code: 'INVALID_REQUEST_BODY',
    param,
    message: `Invalid request: ${param}: ${detail}.`,
  });
}
