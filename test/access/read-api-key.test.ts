import { describe, expect, it } from 'vitest';
import { readApiKey } from '../../src/access/read-api-key.js';

describe('readApiKey', () => {
  it('should read a bearer token', () => {
    expect(readApiKey({ authorization: 'Bearer sk-1' }, false)).toEqual({ kind: 'key', key: 'sk-1' });
  });

  it('should accept the scheme in any case', () => {
    expect(readApiKey({ authorization: 'bearer sk-1' }, false)).toEqual({ kind: 'key', key: 'sk-1' });
  });

  it('should read x-api-key only where it is accepted', () => {
    expect(readApiKey({ 'x-api-key': 'sk-2' }, true)).toEqual({ kind: 'key', key: 'sk-2' });
    expect(readApiKey({ 'x-api-key': 'sk-2' }, false)).toEqual({ kind: 'none' });
  });

  it('should prefer the bearer token over x-api-key', () => {
    expect(readApiKey({ authorization: 'Bearer a', 'x-api-key': 'b' }, true)).toEqual({ kind: 'key', key: 'a' });
  });

  it('should diagnose a doubled Bearer scheme', () => {
    expect(readApiKey({ authorization: 'Bearer Bearer sk-1' }, false)).toEqual({ kind: 'double-bearer' });
    expect(readApiKey({ 'x-api-key': 'Bearer sk-1' }, true)).toEqual({ kind: 'double-bearer' });
  });

  it('should report no key for another scheme', () => {
    expect(readApiKey({ authorization: 'Basic abc' }, false)).toEqual({ kind: 'none' });
  });
});
