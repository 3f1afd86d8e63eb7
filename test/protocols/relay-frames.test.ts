import { describe, expect, it } from 'vitest';
import { eventTypeOf, renameModel } from '../../src/protocols/relay-frames.js';

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

  it('should not take a quoted model inside a string for a member', () => {
    expect(renameModel('{"text":"say \\"model\\": \\"gpt-5\\"","model":"gpt-5"}', 'gpt-5', 'mine')).toBe('{"text":"say \\"model\\": \\"gpt-5\\"","model":"mine"}');
  });
});
