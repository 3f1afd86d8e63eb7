import type { MessageCreateParamsBase as BetaMessageCreateParamsBase } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages/messages';
import { describe, expect, it } from 'vitest';
import { messagesCodec } from '../../../src/protocols/messages/index.js';
import type { messagesRequestFields } from '../../../src/protocols/messages/request-fields.js';

/** `betas` is sent as the `anthropic-beta` header, not in the body. */
type SdkField = keyof MessageCreateParamsBase | Exclude<keyof BetaMessageCreateParamsBase, 'betas'>;
/** `true` only when the list holds every body field of the SDK's request types; `npx tsc` names any it lacks. */
type Unlisted = Exclude<SdkField, (typeof messagesRequestFields)[number]>;
const everySdkField: [Unlisted] extends [never] ? true : Unlisted = true;

describe('messagesRequestFields', () => {
  it("should hold every body field of the Anthropic SDK's Messages request, beta included (checked by tsc)", () => {
    expect(everySdkField).toBe(true);
  });

  it('should hold every hint field, so none is ever called unknown', () => {
    expect([...messagesCodec.hintFields].filter((field) => !messagesCodec.fields.known.has(field))).toEqual([]);
  });
});
