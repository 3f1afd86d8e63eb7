/** The `key` label of a request whose caller has no public id (configured keys, no keys required). */
export const NO_KEY = 'none';
/** The `key` label of every key past the bound. */
export const OTHER_KEYS = 'other';

/**
 * Bounds a per-key label: the first `max` public ids seen get their own value, every later one is
 * `other`, so a gateway with many keys cannot grow a metric without end.
 */
export function createKeyLabel(max: number): (keyId: string | undefined) => string {
  const seen = new Set<string>();
  return (keyId) => {
    if (keyId === undefined) return NO_KEY;
    if (seen.has(keyId)) return keyId;
    if (seen.size >= max) return OTHER_KEYS;
    seen.add(keyId);
    return keyId;
  };
}
