import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database, type OpenDatabaseOptions, type StorageEngine } from '../../src/storage/open-database.js';

/** The PostgreSQL every machine and CI runs (trust auth, database `test`). */
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  /** Opens (or reopens) the store; each test database has its own file or PostgreSQL schema. */
  open(options?: Partial<OpenDatabaseOptions>): Promise<Database>;
  /** Removes the file or drops the schema. */
  remove(): Promise<void>;
}

/** A store of its own for one test, on either engine: a temporary SQLite file, or a fresh PostgreSQL schema. */
export function testDatabase(engine: StorageEngine): TestDatabase {
  const suffix = randomBytes(6).toString('hex');
  if (engine === 'sqlite') {
    const file = join(tmpdir(), `switchyard-test-${suffix}.db`);
    return {
      open: (options) => openDatabase({ url: file, ...options }),
      remove: async () => {
        for (const path of [file, `${file}-wal`, `${file}-shm`]) rmSync(path, { force: true });
      },
    };
  }
  const schema = `test_${suffix}`;
  return {
    open: (options) => openDatabase({ url: DATABASE_URL, schema, ...options }),
    remove: async () => {
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  };
}
