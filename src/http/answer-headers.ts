import type { HttpResponse } from './types.js';

/** Header names and values one after the other (`[name, value, name, value, …]`), as `writeHead` takes them. */
export type HeaderList = string[];

const ADDED = Symbol('switchyard.answerHeaders');
type WithAdded = HttpResponse & { [ADDED]?: HeaderList };

/**
 * Adds a header to the answer `res` is about to write (the rate-limit and timing headers, a
 * stage's own): kept aside and put into the answer's one `writeHead`, since each `setHeader`
 * beforehand makes Node validate and merge every header of the answer again. A name added again
 * replaces its value. A flat list, not an object: appending to it copies nothing, and Node writes
 * it without walking an object's keys. Merging objects of different header names, as before, cost
 * about 5k instructions an answer with the rate-limit headers on (callgrind), its keyed stores megamorphic.
 */
export function addAnswerHeader(res: HttpResponse, name: string, value: string): void {
  const added = (res as WithAdded)[ADDED];
  if (added === undefined) (res as WithAdded)[ADDED] = [name, value];
  else setIn(added, name, value);
}

/**
 * The headers to write: `base` (the answer's own, whose names it holds once), `extra` (an error's,
 * e.g. `retry-after`), the request id's, then those added for `res`; a later one replaces an
 * earlier one of the same name (a stage's own `x-request-id` wins, as an added one always has).
 */
export function answerHeaderList(
  res: HttpResponse,
  base: HeaderList,
  requestId: string | undefined,
  extra?: Record<string, string>,
): HeaderList {
  const list = base;
  if (extra !== undefined) for (const name in extra) setIn(list, name, extra[name]!);
  if (requestId !== undefined) {
    // Anthropic SDKs read `request-id`, OpenAI SDKs `x-request-id`.
    setIn(list, 'x-request-id', requestId);
    setIn(list, 'request-id', requestId);
  }
  const added = (res as WithAdded)[ADDED];
  if (added !== undefined) for (let index = 0; index < added.length; index += 2) setIn(list, added[index]!, added[index + 1]!);
  return list;
}

/** Sets `name` in `list`: its value replaced where it is there already, else added at the end. */
function setIn(list: HeaderList, name: string, value: string): void {
  for (let index = 0; index < list.length; index += 2) {
    if (list[index] === name) {
      list[index + 1] = value;
      return;
    }
  }
  list.push(name, value);
}
