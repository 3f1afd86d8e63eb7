const units: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `32mb`, `64kb`, `1.5gb` or a plain byte count, in bytes (1024-based, as body-parser counted). */
export function parseBodyLimit(limit: number | string): number {
  if (typeof limit === 'number') return limit;
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(limit.trim());
  if (!match) throw new TypeError(`'${limit}' is not a size; use bytes or a size like '32mb'`);
  return Math.floor(Number(match[1]) * (units[(match[2] ?? 'b').toLowerCase()] ?? 1));
}
