import { describe, expect, it } from 'vitest';
import { unknownFieldError } from '../../src/canonical/unknown-field.js';
import { chatFields } from '../../src/protocols/chat-completions/request-fields.js';
import { messagesFields } from '../../src/protocols/messages/request-fields.js';
import { responsesFields } from '../../src/protocols/responses/request-fields.js';

describe('unknownFieldError', () => {
  it('should name the API and suggest the closest field', () => {
    const error = unknownFieldError('temprature', chatFields, 'mock');
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, code: 'UNKNOWN_FIELD', param: 'temprature' });
    expect(error.message).toBe(
      "'temprature' is not a field of the Chat Completions API. Did you mean 'temperature'? The model 'mock' does not take it as an extra field.",
    );
  });

  it("should say how this API says another API's field, rather than guess by spelling", () => {
    expect(unknownFieldError('stop', responsesFields, 'm').message).toBe(
      "'stop' is not a field of the Responses API: it has no stop sequences. The model 'm' does not take it as an extra field.",
    );
    expect(unknownFieldError('max_tokens', responsesFields, 'm').message).toContain(
      "the Responses API: it calls this 'max_output_tokens'.",
    );
    expect(unknownFieldError('stop', messagesFields, 'm').message).toContain("the Messages API: it calls this 'stop_sequences'.");
    expect(unknownFieldError('instructions', chatFields, 'm').message).toContain(
      "it takes the system prompt as a message with role 'system'",
    );
  });

  it('should suggest by spelling within the API', () => {
    expect(unknownFieldError('max_output_token', responsesFields, 'm').message).toContain("Did you mean 'max_output_tokens'?");
    expect(unknownFieldError('stop_sequence', messagesFields, 'm').message).toContain("Did you mean 'stop_sequences'?");
  });

  it('should ask for removal when no field is close', () => {
    expect(unknownFieldError('zzz_custom_flag', chatFields, 'mock').message).toBe(
      "'zzz_custom_flag' is not a field of the Chat Completions API, and the model 'mock' does not take it as an extra field. Remove it from the request.",
    );
  });

  it("should never suggest Chat's one-letter 'n', which every name contains", () => {
    expect(unknownFieldError('tokens', chatFields, 'm').message).not.toContain("'n'");
  });

  it('should quote only the start of a huge field name, and suggest nothing for it', () => {
    const error = unknownFieldError(`temperature${'x'.repeat(10_000)}`, chatFields, 'm');
    expect(error.message.length).toBeLessThan(400);
    expect(error.message).not.toContain('Did you mean');
  });

  it("should only ever name another API's field that is foreign to this API", () => {
    for (const api of [chatFields, responsesFields, messagesFields]) {
      expect([...api.counterparts.keys()].filter((field) => api.known.has(field))).toEqual([]);
    }
  });
});
