import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions/completions';
import { describe, expect, it } from 'vitest';
import { chatCodec } from '../../../src/protocols/chat-completions/index.js';
import type { chatRequestFields } from '../../../src/protocols/chat-completions/request-fields.js';

/** `true` only when the list holds every field of the openai SDK's request type; `npx tsc` names any it lacks. */
type Unlisted = Exclude<keyof ChatCompletionCreateParamsBase, (typeof chatRequestFields)[number]>;
const everySdkField: [Unlisted] extends [never] ? true : Unlisted = true;

describe('chatRequestFields', () => {
  it("should hold every field of the openai SDK's Chat request (checked by tsc)", () => {
    expect(everySdkField).toBe(true);
  });

  it('should hold every hint field, so none is ever called unknown', () => {
    expect([...chatCodec.hintFields].filter((field) => !chatCodec.fields.known.has(field))).toEqual([]);
  });
});
