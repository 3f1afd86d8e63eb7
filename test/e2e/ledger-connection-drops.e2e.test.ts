import { randomBytes } from 'node:crypto';
import OpenAI from 'openai';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/open-database.js';
import { DATABASE_URL } from '../helpers/test-database.js';
import { startGateway } from '../helpers/start-gateway.js';
import { useScratch } from '../helpers/scratch.js';

const ADMIN_KEY = 'admin-connection-drops-0123456789';
const scratch = useScratch();

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Ends every server connection of the gateway under test (and only those): what `pg_terminate_backend` or a fast shutdown does. */
async function terminateConnections(applicationName: string): Promise<number> {
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ ended: boolean }>(
      'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = $1',
      [applicationName],
    );
    return rows.filter((row) => row.ended).length;
  } finally {
    await admin.end();
  }
}

describe('the gateway when PostgreSQL ends its connections under traffic', () => {
  it('should keep answering, and write the row of every answered request once the connections are back', async () => {
    const { schema } = scratch.postgres();
    // A name of this test's own, so that it ends only its own connections.
    const applicationName = `switchyard_drops_${randomBytes(4).toString('hex')}`;
    const url = new URL(DATABASE_URL);
    url.searchParams.set('application_name', applicationName);
    const running = await startGateway({
      database: { url: url.toString(), schema },
      adminKey: ADMIN_KEY,
      keyCacheTtlMs: 600_000,
      ledger: { outbox: scratch.file('outbox'), intervalMs: 2 },
    });
    scratch.later(() => running.gateway.close());
    scratch.later(() => running.close());
    await running.gateway.ready();
    const { key } = await running.gateway.keys!.create({ name: 'through dropped connections' });
    const openai = new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 });

    const acknowledged: string[] = [];
    const failures: unknown[] = [];
    let stopping = false;
    const load = async () => {
      while (!stopping) {
        try {
          const answer = await openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] });
          acknowledged.push(answer._request_id ?? '');
        } catch (error) {
          failures.push(error);
        }
      }
    };
    const loaders = Array.from({ length: 8 }, load);

    // The connections are ended while rows are being written, again and again.
    let ended = 0;
    for (let round = 0; round < 6; round += 1) {
      const before = acknowledged.length;
      await waitFor(async () => acknowledged.length >= before + 40, 'answers between two drops');
      ended += await terminateConnections(applicationName);
    }
    const afterDrops = acknowledged.length;
    await waitFor(async () => acknowledged.length >= afterDrops + 100, 'answers after the last drop');
    stopping = true;
    await Promise.all(loaders);

    expect(ended).toBeGreaterThan(0);
    expect(failures).toEqual([]);
    const direct = await openDatabase({ url: DATABASE_URL, schema, migrate: false });
    scratch.later(() => direct.close());
    const ledgerIds = async () => (await direct.db.selectFrom('usage_ledger').select('request_id').execute()).map((row) => row.request_id);
    await waitFor(async () => (await ledgerIds()).length >= acknowledged.length, 'every answered row');
    const ids = await ledgerIds();
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...acknowledged].sort());
  });
});
