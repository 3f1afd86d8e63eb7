import { rmSync, writeFileSync } from 'node:fs';
import OpenAI from 'openai';
import { Pool } from 'undici';
import { describe, expect, it } from 'vitest';
import { openDatabase, type OpenDatabaseOptions } from '../../src/storage/open-database.js';
import { DATABASE_URL } from '../helpers/test-database.js';
import { startGateway, type RunningGateway } from '../helpers/start-gateway.js';
import { startTcpRelay } from '../helpers/tcp-relay.js';
import { cleanEnv, readBanner, spawnCli } from '../server/spawn-cli.js';
import { useScratch } from '../helpers/scratch.js';

const ADMIN_KEY = 'admin-durability-0123456789';
const scratch = useScratch();

async function ledgerRequestIds(database: OpenDatabaseOptions): Promise<string[]> {
  const direct = await openDatabase({ ...database, migrate: false });
  try {
    const rows = await direct.db.selectFrom('usage_ledger').select('request_id').execute();
    return rows.map((row) => row.request_id);
  } finally {
    await direct.close();
  }
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('the ledger when PostgreSQL goes away', () => {
  it('should keep serving, hold rows in the outbox, and write every one once the database is back', async () => {
    const relay = await startTcpRelay('127.0.0.1', Number(new URL(DATABASE_URL).port || 5432));
    scratch.later(() => relay.close());
    const { schema } = scratch.postgres();
    const viaRelay = new URL(DATABASE_URL);
    viaRelay.port = String(relay.port);
    const running: RunningGateway = await startGateway({
      database: { url: viaRelay.toString(), schema },
      adminKey: ADMIN_KEY,
      keyCacheTtlMs: 600_000,
      ledger: { outbox: scratch.file('outbox'), intervalMs: 5 },
    });
    scratch.later(() => running.gateway.close());
    scratch.later(() => running.close());
    await running.gateway.ready();
    const { key } = await running.gateway.keys!.create({ name: 'through an outage' });
    const openai = new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const acknowledged: string[] = [];
    const ask = async () => {
      const answer = await openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] });
      acknowledged.push(answer._request_id ?? '');
    };
    const direct = { url: DATABASE_URL, schema };

    for (let i = 0; i < 10; i += 1) await ask();
    await waitFor(async () => (await ledgerRequestIds(direct)).length === 10, 'the first rows');

    await relay.cut();
    // Every request is still answered while the database is unreachable.
    for (let i = 0; i < 30; i += 1) await ask();
    const during = (await (await fetch(`${running.root}/admin/ledger`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } })).json()) as {
      waiting: number;
      failedWrites: number;
    };
    expect(during.waiting).toBeGreaterThan(0);
    expect((await ledgerRequestIds(direct)).length).toBe(10);

    await relay.restore();
    await waitFor(async () => (await ledgerRequestIds(direct)).length === 40, 'the rows held in the outbox');
    const ids = await ledgerRequestIds(direct);
    expect(new Set(ids).size).toBe(40);
    expect([...ids].sort()).toEqual([...acknowledged].sort());
  });
});

describe.each(['sqlite', 'postgres'] as const)('the ledger when the server is killed under load (%s)', (engine) => {
  it('should write, after a restart, the row of every request answered before the kill, none twice', async () => {
    const database: OpenDatabaseOptions = engine === 'sqlite' ? { url: scratch.file('killed') } : scratch.postgres();
    const config = scratch.file('config').replace(/\.db$/, '.json');
    writeFileSync(config, JSON.stringify({ database, ledger: { outbox: scratch.file('outbox') } }));
    scratch.later(() => rmSync(config, { force: true }));
    const env = cleanEnv({ SWITCHYARD_API_KEY: 'sk-dev-killed' });
    const first = spawnCli(['--port', '0', '--config', config], env);
    scratch.later(() => first.stop(2_000));
    const banner = await readBanner(first);
    // Many requests at once, so that the server's CPU is saturated and its timers run late: the
    // bound must hold under load, not only when the process is idle between requests.
    const pool = new Pool(new URL(banner.openAIBaseURL).origin, { connections: 256 });
    scratch.later(() => pool.destroy());
    const body = JSON.stringify({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] });
    const headers = { authorization: `Bearer ${banner.key}`, 'content-type': 'application/json' };
    const answered: Array<{ id: string; at: number }> = [];
    let killed = false;
    const load = async () => {
      while (!killed) {
        const answer = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers, body }).catch(() => undefined);
        if (answer === undefined) continue;
        await answer.body.dump().catch(() => undefined);
        if (answer.statusCode === 200) answered.push({ id: String(answer.headers['x-request-id']), at: performance.now() });
      }
    };
    const loaders = Array.from({ length: 256 }, load);
    // A row is committed within 50 ms of its answer, and a PostgreSQL insert unanswered for 100 ms
    // is in the outbox (docs/keys-usage-budgets.md, "What a crash can lose"): only answers received
    // in the last instants before the kill may have raced it.
    const margin = engine === 'sqlite' ? 90 : 190;
    // Over 1,000 answers older than that margin, spread over at least half a second, and the load
    // still on: too few would all fall in the last instants before the kill, which prove nothing.
    // Counting the settled ones here, not the total, keeps the bound whatever the machine's rate.
    const settledBy = (at: number) => answered.filter((answer) => answer.at < at - margin);
    await waitFor(
      async () => {
        const settled = settledBy(performance.now());
        return settled.length > 1_000 && settled.at(-1)!.at - settled[0]!.at > 500;
      },
      '1,000 settled answers over half a second',
      60_000,
    );
    const killedAt = performance.now();
    first.signal('SIGKILL');
    killed = true;
    await first.exited;
    await Promise.all(loaders);

    const second = spawnCli(['--port', '0', '--config', config], env);
    scratch.later(() => second.stop(2_000));
    await readBanner(second);
    await second.stop();
    const ids = await ledgerRequestIds(database);
    expect(new Set(ids).size).toBe(ids.length);
    const settled = settledBy(killedAt);
    expect(settled.length).toBeGreaterThan(1_000);
    const written = new Set(ids);
    expect(settled.filter((answer) => !written.has(answer.id))).toEqual([]);
  });
});
