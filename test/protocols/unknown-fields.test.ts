import { describe, expect, it } from 'vitest';
import { chatCodec } from '../../src/protocols/chat-completions/index.js';
import { messagesCodec } from '../../src/protocols/messages/index.js';
import { responsesCodec } from '../../src/protocols/responses/index.js';
import { pickUnknownAnswerFields, pickUnknownFields } from '../../src/protocols/unknown-fields.js';

describe('the unknown-field carry-along', () => {
  it('should keep unmapped fields as sent, and count null as absent', () => {
    expect(pickUnknownFields({ model: 'm', a: 1, b: null, c: undefined, d: false, e: { f: null } }, ['model'])).toEqual({
      a: 1,
      d: false,
      e: { f: null },
    });
    expect(pickUnknownFields({ model: 'm', b: null }, ['model'])).toBeUndefined();
  });

  it("should keep a provider's answer fields exactly, null included", () => {
    expect(pickUnknownAnswerFields({ id: 'x', container: null, c: undefined }, ['id'])).toEqual({ container: null });
  });

  it('should treat null the same on every protocol: the field is not carried to the provider', () => {
    const chat = chatCodec.decodeRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }], x_vendor: 1, x_unset: null });
    const messages = messagesCodec.decodeRequest({
      model: 'm',
      max_tokens: 1,
      messages: [{ role: 'user', content: 'hi' }],
      x_vendor: 1,
      x_unset: null,
    });
    const responses = responsesCodec.decodeRequest({ model: 'm', input: [{ role: 'user', content: 'hi', x_vendor: 1, x_unset: null }] });
    expect(chat.extensions?.chat).toEqual({ x_vendor: 1 });
    expect(messages.extensions?.messages).toEqual({ x_vendor: 1 });
    expect(responses.messages[0]?.extensions?.responses).toEqual({ x_vendor: 1 });
  });
});
