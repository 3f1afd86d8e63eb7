import { randomBytes } from 'node:crypto';
import type { KyselyPlugin } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyCache } from '../../src/access/key-cache.js';
import { mintKey } from '../../src/access/key-format.js';
import { createStoredKeyAuthentication } from '../../src/access/stored-key-authentication.js';
import { createKey } from '../../src/access/stored-keys.js';
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
