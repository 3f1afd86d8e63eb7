import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEY_LENGTH, KEY_PREFIX, hashSecret, mintKey, parseKey, memoizedKeyParser } from '../../src/access/key-format.js';

describe('mintKey and parseKey', () => {
  it('should read back the public id and secret hash of every minted key', () => {
    for (let index = 0; index < 200; index++) {
      const minted = mintKey();
      expect(minted.key).toHaveLength(KEY_LENGTH);
      expect(minted.key.startsWith(KEY_PREFIX)).toBe(true);
      expect(parseKey(minted.key)).toEqual({ ok: true, publicId: minted.publicId, secretHash: minted.secretHash });
    }
  });

  it("should never store or show the secret: the hash and the public id are not in the key's secret part", () => {
    const minted = mintKey();
    const secret = minted.key.slice(KEY_PREFIX.length + minted.publicId.length, -6);
    expect(secret).toHaveLength(43);
    expect(minted.secretHash).toBe(hashSecret(secret));
    expect(minted.secretHash).not.toContain(secret);
    expect(minted.publicId).not.toContain(secret);
  });

  it('should catch any one mistyped character with the checksum', () => {
    const { key } = mintKey();
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    fc.assert(
      fc.property(fc.integer({ min: KEY_PREFIX.length, max: KEY_LENGTH - 1 }), fc.constantFrom(...alphabet), (at, character) => {
        fc.pre(key[at] !== character);
        const typo = `${key.slice(0, at)}${character}${key.slice(at + 1)}`;
        expect(parseKey(typo)).toEqual({ ok: false, reason: 'checksum' });
      }),
    );
  });

  it('should say a key without our prefix is not one of ours', () => {
    const { key } = mintKey();
    for (const other of ['sk-test-123', key.replace(KEY_PREFIX, 'sk-xx-'), key.slice(1)]) {
      expect(parseKey(other)).toEqual({ ok: false, reason: 'not-ours' });
    }
  });

  it('should say a key with our prefix but cut short, too long or with a foreign character is ours, mistyped', () => {
    const { key } = mintKey();
    for (const mangled of [
      key.slice(0, -1),
      key.slice(0, 30),
      `${key}x`,
      `${key.slice(0, 20)} ${key.slice(21)}`,
      `${key.slice(0, 20)}…${key.slice(21)}`,
    ]) {
      expect(parseKey(mangled)).toEqual({ ok: false, reason: 'checksum' });
    }
  });

  it('should never mint a public id that starts with a dash, which a command line reads as an option', () => {
    // 1 id in 64 would: 3,000 ids without one happen by chance once in 10^20.
    const ids = Array.from({ length: 3000 }, () => mintKey().publicId);
    expect(ids.filter((id) => id.startsWith('-'))).toEqual([]);
    expect(ids.some((id) => id.includes('-'))).toBe(true);
  });

  it('should mint distinct keys', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => mintKey().publicId));
    expect(keys.size).toBe(1000);
  });
});

describe('memoizedKeyParser', () => {
  it('answers as parseKey does, for good, mistyped and foreign keys, asked twice', () => {
    const parse = memoizedKeyParser(2);
    const keys = [mintKey().key, mintKey().key, mintKey().key];
    const mistyped = `${keys[0]!.slice(0, -1)}${keys[0]!.endsWith('A') ? 'B' : 'A'}`;
    for (const key of [...keys, mistyped, 'sk-other', ...keys, mistyped]) expect(parse(key)).toEqual(parseKey(key));
  });
});
