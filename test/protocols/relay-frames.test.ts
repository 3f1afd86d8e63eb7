import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/canonical/index.js';
import { eventTypeOf, relayJsonAnswer, renameModel, stringMemberLength } from '../../src/protocols/relay-frames.js';
import { decodeResponsesResponse } from '../../src/protocols/responses/index.js';
import { jsonFixture } from '../helpers/fixtures.js';

describe('eventTypeOf', () => {
  it('should take the event line, else the leading type member, else nothing', () => {
    expect(eventTypeOf({ event: 'ping', data: '{"type":"other"}' })).toBe('ping');
    expect(eventTypeOf({ data: '{"type":"response.output_text.delta","delta":"x"}' })).toBe('response.output_text.delta');
    expect(eventTypeOf({ data: '{"delta":"x","type":"a"}' })).toBeUndefined();
    expect(eventTypeOf({ data: '{"type":"unterminated' })).toBeUndefined();
  });
});

describe('renameModel', () => {
  it('should rename the first model member when it names the expected model, keeping the rest byte for byte', () => {
    expect(renameModel('{"id":"r","model":"gpt-5","text":"model"}', 'gpt-5', 'mine')).toBe('{"id":"r","model":"mine","text":"model"}');
    expect(renameModel('{"model" : "gpt-5"}', 'gpt-5', 'a"b')).toBe('{"model":"a\\"b"}');
    expect(renameModel('{"model":"gpt-\\u0035"}', 'gpt-5', 'mine')).toBe('{"model":"mine"}');
  });

  it('should refuse when the first model member is another one, or there is none', () => {
    expect(renameModel('{"tools":[{"model":"image-1"}],"model":"gpt-5"}', 'gpt-5', 'mine')).toBeUndefined();
    expect(renameModel('{"id":"r"}', 'gpt-5', 'mine')).toBeUndefined();
  });

  it('should not take a string value "model" for the member', () => {
    expect(renameModel('{"name":"model","model":"gpt-5"}', 'gpt-5', 'mine')).toBe('{"name":"model","model":"mine"}');
    expect(renameModel('{"name":"model","model" : "gpt-5"}', 'gpt-5', 'mine')).toBe('{"name":"model","model":"mine"}');
  });

  it('should not take a quoted model inside a string for a member', () => {
    expect(renameModel('{"text":"say \\"model\\": \\"gpt-5\\"","model":"gpt-5"}', 'gpt-5', 'mine')).toBe(
      '{"text":"say \\"model\\": \\"gpt-5\\"","model":"mine"}',
    );
  });
});

describe('relayJsonAnswer', () => {
  const body = jsonFixture('responses', 'upstream-response');
  const text = JSON.stringify(body, null, 1); // an upstream's own spacing, kept

  it("should keep the upstream's text but for the model, and decode it as the translated path does", () => {
    const relayed = relayJsonAnswer(text, body, 'mine', decodeResponsesResponse);
    expect(relayed.response).toEqual(decodeResponsesResponse(body));
    expect(relayed.wire).toBe(text.replace(`"model": ${JSON.stringify(body.model)}`, '"model":"mine"'));
  });

  it("should send the text untouched when it already names the caller's model, and add the model when it names none", () => {
    expect(relayJsonAnswer(text, body, String(body.model), decodeResponsesResponse).wire).toBe(text);
    const { model: _, ...nameless } = body;
    expect(JSON.parse(relayJsonAnswer(JSON.stringify(nameless), nameless, 'mine', decodeResponsesResponse).wire)).toEqual({
      ...nameless,
      model: 'mine',
    });
  });

  it('should throw what the decoder throws for a failed answer', () => {
    const failed = { ...body, status: 'failed', error: { code: 'server_error', message: 'boom' } };
    expect(() => relayJsonAnswer(JSON.stringify(failed), failed, 'mine', decodeResponsesResponse)).toThrow(GatewayError);
  });
});

describe('stringMemberLength', () => {
  it('should give the decoded length of the member, escaped or not, as parsing the event would', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.string({ maxLength: 4 }), (text, other) => {
        const data = JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text }, other });
        expect(stringMemberLength(data, 'text')).toBe(text.length);
      }),
    );
    expect(stringMemberLength('{"delta":{"text":"a\\"b\\u00e9"}}', 'text')).toBe(4);
    expect(stringMemberLength('{"delta":{"text": "emoji 🙂"}}', 'text')).toBe('emoji 🙂'.length);
    expect(stringMemberLength('{"delta":{"text":null}}', 'text')).toBe(0);
    expect(stringMemberLength('{"delta":{"text":"cut', 'text')).toBe(0);
  });
});
