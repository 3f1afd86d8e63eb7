import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';
import type { StatusReport } from '../../src/status/status-report.js';
import { testDatabase } from '../helpers/test-database.js';

/**
 * A SQLite ledger big enough that the status page and the usage report take a good while to
 * compute; while they do, the server must go on answering. better-sqlite3 is synchronous, so a
 * page read on the main thread would hold every request until it ends.
 */
const ROWS = 300_000;
const MODELS = ['gpt-a', 'gpt-b', 'claude-c', 'mini-d'];
const KEYS = Array.from({ length: 20 }, (_, index) => `key_${index}`);
const DAY_MS = 86_400_000;
const SPAN_MS = 6 * DAY_MS;

const database = testDatabase('sqlite');
let file = '';
let server: RunningServer;
let cookie = '';

/** Writes `ROWS` ledger rows over the last six days in one transaction (a few seconds). */
function fillLedger(path: string, now: number): void {
  const db = new SQLite(path);
  const insert = db.prepare(
    `INSERT INTO usage_ledger (request_id, attempt, at, key_public_id, protocol, model, provider, stream, status, error_code, input_tokens, output_tokens, cost_nano_usd, latency_ms, first_token_ms, billing)
     VALUES (?, 0, ?, ?, 'chat', ?, 'openai', ?, ?, ?, 100, ?, ?, 900, ?, ?)`,
  );
  db.transaction(() => {
    for (let index = 0; index < ROWS; index += 1) {
      const failed = index % 50 === 0;
      const stream = index % 2;
      insert.run(
        `req_${index}`,
        now - SPAN_MS + Math.floor((index * SPAN_MS) / ROWS),
        KEYS[index % KEYS.length],
        MODELS[index % MODELS.length],
        stream,
        failed ? 502 : 200,
        failed ? 'UPSTREAM_ERROR' : null,
        failed ? null : 40,
        failed ? null : 1_000,
        stream ? 250 : null,
        failed ? 'failed' : 'complete',
      );
    }
  })();
  db.close();
}

/**
 * Asks `/health` one request after another (a couple of ms apart) until `page` settles: how long
 * the page took, and each `/health` answer's time. One client: more would load the test's own
 * thread (which is the server's too) and measure themselves.
 */
async function healthWhile(page: () => Promise<Response>): Promise<{ pageMs: number; page: Response; health: number[] }> {
  const health: number[] = [];
  let settled = false;
  const started = performance.now();
  const pending = page().finally(() => (settled = true));
  const pageMs = pending.then(() => performance.now() - started);
  const client = async () => {
    while (!settled) {
      const asked = performance.now();
      const answer = await fetch(`${server.root}/health`);
      await answer.arrayBuffer();
      expect(answer.status).toBe(200);
      health.push(performance.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  await client();
  return { page: await pending, pageMs: await pageMs, health };
}

const p99 = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.99))] ?? 0;

/** A page long enough to tell a blocked server (one /health answer as slow as the page) from one that answers. */
function expectNotBlocked({ pageMs, health }: { pageMs: number; health: number[] }): void {
  const summary = `page ${Math.round(pageMs)} ms; ${health.length} /health answers, p99 ${Math.round(p99(health))} ms, slowest ${Math.round(Math.max(...health))} ms`;
  if (process.env.SHOW_TIMINGS) console.log(summary);
  // The page lasted long enough to tell: twenty /health round trips fit in it (no wall-clock floor,
  // which a fast run can miss); a blocked server would have answered one.
  expect(health.length, summary).toBeGreaterThanOrEqual(20);
  expect(Math.max(...health), summary).toBeLessThan(pageMs / 4);
  expect(p99(health), summary).toBeLessThan(50);
}

beforeAll(async () => {
  const now = Date.now();
  const migrated = await database.open();
  file = migrated.location;
  await migrated.close();
  fillLedger(file, now);
  server = await startServer(
    {
      database: file,
      apiKeys: ['sk-large-ledger-0123456789'],
      models: MODELS.map((id) => ({ id, provider: 'mock' })),
      logger: silentLogger,
      ledger: { outbox: `${file}.outbox` },
    },
    { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 1_000, status: { cacheMs: 0, probe: false } },
  );
  // The first user is the admin; the usage report is theirs to read.
  const form = await fetch(`${server.root}/register`);
  const pre = form.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const registered = await fetch(`${server.root}/register`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.root, cookie: pre },
    body: new URLSearchParams({ csrf, email: 'admin@example.com', password: 'a long enough password' }).toString(),
  });
  expect(registered.status).toBe(303);
  cookie = registered.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}, 120_000);

afterAll(async () => {
  await server?.close().done;
  await database.remove();
});

describe('reads of a large SQLite ledger', () => {
  it('should go on answering /health while /status.json reads the week of every model', async () => {
    const measured = await healthWhile(() => fetch(`${server.root}/status.json`));
    expect(measured.page.status).toBe(200);
    const report = (await measured.page.json()) as StatusReport;
    // Every row is in the week: the page read them all.
    expect(report.models.reduce((total, model) => total + model.windows.week.requests, 0)).toBe(ROWS);
    expectNotBlocked(measured);
  }, 60_000);

  it("should go on answering /health while an admin's usage CSV sums every day, key and model", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 7 * DAY_MS).toISOString().slice(0, 10);
    const measured = await healthWhile(() => fetch(`${server.root}/usage.csv?from=${from}&to=${today}`, { headers: { cookie } }));
    expect(measured.page.status).toBe(200);
    const lines = (await measured.page.text()).trim().split('\n');
    const header = lines[0]?.split(',') ?? [];
    const requests = header.indexOf('requests');
    expect(requests).toBeGreaterThan(-1);
    expect(lines.slice(1).reduce((total, line) => total + Number(line.split(',')[requests]), 0)).toBe(ROWS);
    expectNotBlocked(measured);
  }, 60_000);
});
