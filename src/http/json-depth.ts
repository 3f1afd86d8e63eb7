import { GatewayError, quoteCallerText } from '../canonical/index.js';

/**
 * Deepest nesting of objects and arrays a request body may have. Tool schemas and content use a
 * dozen levels; thousands make serialisers and validators recurse past the stack.
 */
export const MAX_JSON_DEPTH = 100;

/** The top-level member of a JSON text where it first nests deeper than `max`; `null` when it never does. */
function deepMemberOfText(text: string, max: number): string | undefined | null {
  let depth = 0;
  let member: string | undefined;
  let lastString: string | undefined;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      // Jump over the string: its content never nests, and it is most of a body.
      let end = text.indexOf('"', index + 1);
      while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return null; // not JSON: the parser says why
      if (depth === 1) lastString = text.slice(index + 1, end);
      index = end;
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > max) return member;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    } else if (code === 0x3a && depth === 1) {
      member = lastString;
    }
  }
  return null;
}

/** Whether the quote at `index` is escaped: an odd run of backslashes before it. */
function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  for (let at = index - 1; at >= 0 && text.charCodeAt(at) === 0x5c; at--) backslashes++;
  return backslashes % 2 === 1;
}

/** The same for a value a host app's parser already made (walked without recursion). */
function deepMemberOfValue(value: unknown, max: number): string | undefined | null {
  if (typeof value !== 'object' || value === null) return null;
  const stack: Array<{ value: object; depth: number; member: string | undefined }> = [{ value, depth: 1, member: undefined }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (entry.depth > max) return entry.member;
    for (const [key, child] of Object.entries(entry.value)) {
      if (typeof child !== 'object' || child === null) continue;
      stack.push({
        value: child as object,
        depth: entry.depth + 1,
        member: entry.depth === 1 && !Array.isArray(entry.value) ? key : entry.member,
      });
    }
  }
  return null;
}

function tooDeep(member: string | undefined, max: number): GatewayError {
  const where = member === undefined ? '' : ` in '${quoteCallerText(member)}'`;
  return new GatewayError({
    code: 'JSON_TOO_DEEP',
    ...(member === undefined ? {} : { param: member }),
    message: `The request body nests objects or arrays more than ${max} levels deep${where}; no field of a request needs that many.`,
  });
}

/** Refuses a JSON text nested deeper than `max`, before it is parsed. */
export function checkJsonTextDepth(text: string, max = MAX_JSON_DEPTH): void {
  const member = deepMemberOfText(text, max);
  if (member !== null) throw tooDeep(member, max);
}

/** Refuses an already parsed body nested deeper than `max`. */
export function checkJsonValueDepth(value: unknown, max = MAX_JSON_DEPTH): void {
  const member = deepMemberOfValue(value, max);
  if (member !== null) throw tooDeep(member, max);
}
