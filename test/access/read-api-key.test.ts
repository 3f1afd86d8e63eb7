import { describe, expect, it } from 'vitest';
import { readApiKey } from '../../src/access/read-api-key.js';

describe('readApiKey', () => {
  it('should read a bearer token', () => {
    expect(readApiKey({ authorization: 'Bearer sk-1' }, false)).toEqual({ kind: 'key', key: 'sk-1' });
  });

  it('should accept the scheme in any case', () => {
    expect(readApiKey({ authorization: 'bearer sk-1' }, false)).toEqual({ kind: 'key', key: 'sk-1' });
  });

  it('should read x-api-key only where it is accepted, and report it misplaced elsewhere', () => {
    expect(readApiKey({ 'x-api-key': 'sk-2' }, true)).toEqual({ kind: 'key', key: 'sk-2' });
    expect(readApiKey({ 'x-api-key': 'sk-2' }, false)).toEqual({ kind: 'misplaced', header: 'x-api-key' });
  });

  it('should prefer the bearer token over x-api-key', () => {
    expect(readApiKey({ authorization: 'Bearer a', 'x-api-key': 'b' }, true)).toEqual({ kind: 'key', key: 'a' });
  });

  it('should diagnose a doubled Bearer scheme', () => {
    expect(readApiKey({ authorization: 'Bearer Bearer sk-1' }, false)).toEqual({ kind: 'double-bearer' });
    expect(readApiKey({ 'x-api-key': 'Bearer sk-1' }, true)).toEqual({ kind: 'double-bearer' });
  });

  it('should report nothing sent as none', () => {
    expect(readApiKey({}, false)).toEqual({ kind: 'none' });
    expect(readApiKey({ authorization: '  ', 'x-api-key': '' }, true)).toEqual({ kind: 'none' });
  });

  describe('an Authorization header without Bearer <key>', () => {
    it('should report another scheme by its name', () => {
      expect(readApiKey({ authorization: 'Basic abc' }, false)).toEqual({ kind: 'misplaced', header: 'authorization', scheme: 'Basic' });
    });

    it('should report a key sent alone without repeating it', () => {
      expect(readApiKey({ authorization: 'sk-alone' }, false)).toEqual({ kind: 'misplaced', header: 'authorization' });
      // A single word of letters is still the key, not a scheme.
      expect(readApiKey({ authorization: 'abcdef' }, true)).toEqual({ kind: 'misplaced', header: 'authorization' });
    });

    it('should report Bearer with nothing after it', () => {
      expect(readApiKey({ authorization: 'Bearer' }, false)).toEqual({ kind: 'misplaced', header: 'authorization', scheme: 'Bearer' });
    });

    it('should read x-api-key on an Anthropic endpoint all the same', () => {
      expect(readApiKey({ authorization: 'sk-alone', 'x-api-key': 'sk-2' }, true)).toEqual({ kind: 'key', key: 'sk-2' });
    });
  });
});
