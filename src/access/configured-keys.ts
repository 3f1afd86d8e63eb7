import { hash } from 'node:crypto';
import type { ApiKeyVerifier } from './authenticate.js';

/**
 * A verifier for keys given in the options. Keys are kept as SHA-256 digests: no plain keys held
 * in memory, and a Set lookup of a digest does not leak a prefix match through its timing.
 */
export function verifyConfiguredKeys(keys: readonly string[]): ApiKeyVerifier {
  const digest = (key: string) => hash('sha256', key, 'base64');
  const digests = new Set(keys.map(digest));
  return (key) => digests.has(digest(key));
}
