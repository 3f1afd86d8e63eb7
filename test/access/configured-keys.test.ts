import { describe, expect, it } from 'vitest';
import { verifyConfiguredKeys } from '../../src/access/configured-keys.js';

const KEY = 'sk-test-0123456789abcdef0123456789abcdef';
const OTHER = 'sk-test-fedcba9876543210fedcba9876543210';

describe('keys given in the options', () => {
  it('should accept each configured key, on every request, and nothing else', () => {
    const verify = verifyConfiguredKeys([KEY, OTHER]);
    for (let round = 0; round < 3; round++) {
      expect(verify(KEY)).toBe(true);
      expect(verify(OTHER)).toBe(true);
      expect(verify('sk-test-not-a-key')).toBe(false);
    }
  });

  it('should refuse keys close to one that passed: a prefix, a longer key, another case, one character changed', () => {
    const verify = verifyConfiguredKeys([KEY]);
    expect(verify(KEY)).toBe(true);
    for (const near of [KEY.slice(0, -1), `${KEY}0`, KEY.toUpperCase(), `${KEY.slice(0, -1)}e`, ` ${KEY}`, ''])
      expect(verify(near), near).toBe(false);
    // And the key itself still passes after them.
    expect(verify(KEY)).toBe(true);
  });

  it('should refuse every key when none is configured', () => {
    const verify = verifyConfiguredKeys([]);
    expect(verify(KEY)).toBe(false);
    expect(verify('')).toBe(false);
  });
});
