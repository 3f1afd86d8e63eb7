import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_PREFIX, mintKey } from '../../src/access/key-format.js';
import { createKey, findKey, listKeys, revokeKey } from '../../src/access/stored-keys.js';
import type { Database } from '../../src/storage/open-database.js';
import { testDatabase, type TestDatabase } from '../helpers/test-database.js';

describe.each(['sqlite', 'postgres'] as const)('stored keys on %s', (engine) => {
  let store: TestDatabase;
  let database: Database;
  const open = async () => {
    store = testDatabase(engine);
    database = await store.open();
    return database.db;
  };
  afterEach(async () => {
    await database.close();
    await store.remove();
  });

  it('should return the whole key once and store only its public id and a hash of its secret', async () => {
    const db = await open();
    const { key, stored } = await createKey(
      db,
      { name: 'ci-bot', models: ['claude'], budget: { nanoUsd: 5_000_000_000, period: 'month' } },
      1_000,
    );
    expect(key.startsWith(KEY_PREFIX)).toBe(true);
    expect(stored).toEqual({
      publicId: key.slice(KEY_PREFIX.length, KEY_PREFIX.length + 16),
      name: 'ci-bot',
      createdAt: 1_000,
      lastUsedAt: undefined,
      expiresAt: undefined,
      revokedAt: undefined,
      models: ['claude'],
      budget: { nanoUsd: 5_000_000_000, period: 'month' },
    });
    const secret = key.slice(KEY_PREFIX.length + 16, -6);
    const rows = await db.selectFrom('api_keys').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(await listKeys(db)).toEqual([stored]);
  });

  it('should find a presented key, and say why one may not be used', async () => {
    const db = await open();
    const { key, stored } = await createKey(db, { name: 'a', expiresAt: 10_000 }, 1_000);
    expect(await findKey(db, key, 5_000)).toEqual({ ok: true, key: stored });
    expect(await findKey(db, key, 10_000)).toEqual({ ok: false, reason: 'expired' });
    const typo = `${key.slice(0, 30)}${key[30] === 'A' ? 'B' : 'A'}${key.slice(31)}`;
    expect(await findKey(db, typo, 5_000)).toEqual({ ok: false, reason: 'checksum' });
    expect(await findKey(db, 'sk-from-the-options', 5_000)).toEqual({ ok: false, reason: 'not-ours' });
    expect(await findKey(db, mintKey().key, 5_000)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('should not take a key whose public id is known but whose secret is not its own', async () => {
    const db = await open();
    const { stored } = await createKey(db, { name: 'a' });
    const other = mintKey();
    // Another key's secret under this key's public id, with a valid checksum.
    const forged = (() => {
      const body = `${KEY_PREFIX}${stored.publicId}${other.key.slice(KEY_PREFIX.length + 16, -6)}`;
      const sum = Buffer.alloc(4);
      sum.writeUInt32BE(crc32(body));
      return `${body}${sum.toString('base64url')}`;
    })();
    expect(await findKey(db, forged)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('should refuse a revoked key, and revoke only once', async () => {
    const db = await open();
    const { key, stored } = await createKey(db, { name: 'a' });
    expect(await revokeKey(db, stored.publicId, 2_000)).toBe(true);
    expect(await revokeKey(db, stored.publicId, 3_000)).toBe(false);
    expect(await revokeKey(db, 'no-such-key', 3_000)).toBe(false);
    expect(await findKey(db, key)).toEqual({ ok: false, reason: 'revoked' });
    expect((await listKeys(db))[0]?.revokedAt).toBe(2_000);
  });
});
