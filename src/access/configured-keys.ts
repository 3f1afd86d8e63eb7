import { hash } from 'node:crypto';
import type { ApiKeyVerifier } from './authenticate.js';

/**
 * A verifier for keys given in the options. Keys are kept as SHA-256 digests, and a presented key
 * is checked by its digest: a Set lookup of a digest does not leak a prefix match through its
 * timing. A key that passed is then remembered as presented, as the stored keys' parser does
 * (key-format.ts): a client sends the same key on every request, and its digest cost about 5k
 * instructions and OpenSSL's code in the cache on each. Only keys that passed are remembered, so
 * there are never more than the options give. Looking a wrong key up there compares characters
 * only with a remembered key of the same string hash, so its timing tells no prefix either; it then
 * goes by its digest.
 */
export function verifyConfiguredKeys(keys: readonly string[]): ApiKeyVerifier {
  const digest = (key: string) => hash('sha256', key, 'base64');
  const digests = new Set(keys.map(digest));
  const passed = new Set<string>();
  return (key) => {
    if (passed.has(key)) return true;
    if (!digests.has(digest(key))) return false;
    passed.add(key);
    return true;
  };
}
