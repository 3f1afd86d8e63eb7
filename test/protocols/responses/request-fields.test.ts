import type { ResponseCreateParamsBase } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { responsesCodec } from '../../../src/protocols/responses/index.js';
import type { responsesRequestFields } from '../../../src/protocols/responses/request-fields.js';

/** `true` only when the list holds every field of the openai SDK's request type; `npx tsc` names any it lacks. */
type Unlisted = Exclude<keyof ResponseCreateParamsBase, (typeof responsesRequestFields)[number]>;
const everySdkField: [Unlisted] extends [never] ? true : Unlisted = true;

describe('responsesRequestFields', () => {
  it("should hold every field of the openai SDK's Responses request (checked by tsc)", () => {
    expect(everySdkField).toBe(true);
  });

  it('should hold every hint field, so none is ever called unknown', () => {
    expect([...responsesCodec.hintFields].filter((field) => !responsesCodec.fields.known.has(field))).toEqual([]);
  });
});
