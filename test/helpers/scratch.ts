import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach } from 'vitest';
import { DATABASE_URL } from './test-database.js';

export interface Scratch {
  /** A path in the temporary directory; it and its SQLite companions (`-wal`, `-shm`, `.outbox`) go after the test. */
  file(name: string): string;
  /** The test PostgreSQL with a schema of its own, dropped after the test. */
  postgres(): { url: string; schema: string };
  /** A database of its own on either engine: a SQLite file, or a PostgreSQL schema. */
  database(engine: 'sqlite' | 'postgres'): { url: string; schema?: string };
  /** Runs `cleanup` after the test, before the files and schemas go (last registered, first run). */
  later(cleanup: () => unknown): void;
}

const SQLITE_COMPANIONS = ['', '-wal', '-shm', '.outbox', '.outbox-wal', '.outbox-shm'];

/** What the tests of this file make — files, schemas, servers — undone after each test. */
export function useScratch(): Scratch {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const scratch: Scratch = {
    file(name) {
      const path = join(tmpdir(), `switchyard-${name}-${randomBytes(6).toString('hex')}.db`);
      cleanups.push(() => {
        for (const suffix of SQLITE_COMPANIONS) rmSync(`${path}${suffix}`, { force: true });
      });
      return path;
    },
    postgres() {
      const schema = `test_${randomBytes(6).toString('hex')}`;
      cleanups.push(async () => {
        const client = new pg.Client({ connectionString: DATABASE_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      });
      return { url: DATABASE_URL, schema };
    },
    database: (engine) => (engine === 'sqlite' ? { url: scratch.file('db') } : scratch.postgres()),
    later(cleanup) {
      cleanups.push(cleanup);
    },
  };
  return scratch;
}
