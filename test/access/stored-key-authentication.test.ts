import { randomBytes } from 'node:crypto';
import type { KyselyPlugin } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyCache } from '../../src/access/key-cache.js';
import { mintKey } from '../../src/access/key-format.js';
import { createStoredKeyAuthentication } from '../../src/access/stored-key-authentication.js';
import { createKey, updateKey } from '../../src/access/stored-keys.js';
import { GatewayError, type Caller } from '../../src/canonical/index.js';
import type { Database } from '../../src/storage/open-database.js';
import type { StorageDb } from '../../src/storage/schema.js';
import { testDatabase, type TestDatabase } from '../helpers/test-database.js';

/** The store, counting the queries made through it. */
function counted(db: StorageDb): { db: StorageDb; queries: () => number } {
  let queries = 0;
  const counter: KyselyPlugin = {
    transformQuery: (args) => {
      queries += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(counter), queries: () => queries };
}

const opened: Array<{ database: Database; store: TestDatabase }> = [];
afterEach(async () => {
  for (const { database, store } of opened.splice(0)) {
    await database.close();
    await store.remove();
  }
});

describe.each(['sqlite', 'postgres'] as const)('stored keys never seen before (%s)', (engine) => {
  it('should read a flood of forged keys many to a query, and still find a real key among them', async () => {
    const store = testDatabase(engine);
    const database = await store.open();
    opened.push({ database, store });
    const { key } = await createKey(database.db, { name: 'real' });
    const { db, queries } = counted(database.db);
    const authentication = createStoredKeyAuthentication({
      db: () => db,
      cache: new KeyCache({ ttlMs: 60_000, staleMs: 60_000, maxEntries: 10_000 }),
      tokenSecret: () => randomBytes(32),
    });
    const authenticate = async (presented: string): Promise<Caller | GatewayError> => {
      try {
        return await authentication({ authorization: `Bearer ${presented}` }, false);
      } catch (error) {
        if (GatewayError.isInstance(error)) return error;
        throw error;
      }
    };

    // Keys of the right shape with a valid checksum, that no one ever created.
    const forged = Array.from({ length: 1_000 }, () => mintKey().key);
    const answers = await Promise.all([...forged.slice(0, 500), key, ...forged.slice(500)].map(authenticate));

    expect(answers.filter((answer) => 'code' in answer && answer.code === 'INVALID_API_KEY')).toHaveLength(1_000);
    expect(answers[500]).toMatchObject({ keyName: 'real' });
    // 1,001 keys not seen before: a few queries, not one per key.
    expect(queries()).toBeLessThanOrEqual(5);
  });
});

describe('the caller of a stored key', () => {
  it('is made once per key as read, and anew when the key read again has changed', async () => {
    const store = testDatabase('sqlite');
    const database = await store.open();
    opened.push({ database, store });
    const { key, stored } = await createKey(database.db, { name: 'changing', models: ['model-a'] });
    let time = 1_000;
    const authentication = createStoredKeyAuthentication({
      db: () => database.db,
      cache: new KeyCache({ ttlMs: 60_000, staleMs: 60_000, maxEntries: 100, now: () => time }),
      tokenSecret: () => randomBytes(32),
    });
    const callerNow = async () => await authentication({ authorization: `Bearer ${key}` }, false);

    const first = await callerNow();
    expect(first).toMatchObject({ keyId: stored.publicId, models: ['model-a'] });
    // From the cache: the same caller, not a copy per request.
    expect(await callerNow()).toBe(first);

    await updateKey(database.db, stored.publicId, { models: ['model-b'] });
    time += 61_000; // past the cache's lifetime: read again
    expect(await callerNow()).toMatchObject({ models: ['model-b'] });
    expect((await callerNow()).models).toEqual(['model-b']);
  });
});
