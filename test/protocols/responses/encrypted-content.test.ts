import { describe, expect, it } from 'vitest';
import { decodeResponsesEncryptedContent, encodeResponsesEncryptedContent } from '../../../src/protocols/responses/encrypted-content.js';

describe('encodeResponsesEncryptedContent', () => {
  it('should mint a sy1. token that decodes back to the signature', () => {
    const token = encodeResponsesEncryptedContent({ signature: 'EqQBCkYIBxgC+/==' });
    expect(token).toMatch(/^sy1\.[A-Za-z0-9_-]+$/);
    expect(decodeResponsesEncryptedContent(token ?? '')).toEqual({ signature: 'EqQBCkYIBxgC+/==' });
  });

  it('should carry redacted data and non-ASCII text', () => {
    const token = encodeResponsesEncryptedContent({ redactedData: 'dönüş ✓' });
    expect(decodeResponsesEncryptedContent(token ?? '')).toEqual({ redactedData: 'dönüş ✓' });
  });

  it('should return undefined when there is nothing to carry', () => {
    expect(encodeResponsesEncryptedContent({})).toBeUndefined();
  });
});

describe('decodeResponsesEncryptedContent', () => {
  it.each([
    { name: 'an OpenAI blob', value: 'gAAAAABoc-openai' },
    { name: 'a broken sy1 token', value: 'sy1.!!!' },
    { name: 'a sy1 token without known keys', value: `sy1.${btoa('{"x":1}')}` },
    { name: 'a sy1 token that is not JSON', value: `sy1.${btoa('nope')}` },
  ])('should not claim $name', ({ value }) => {
    expect(decodeResponsesEncryptedContent(value)).toBeUndefined();
  });
});
