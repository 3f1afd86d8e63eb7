// The ledger against what the upstreams reported: every client × every upstream kind, streamed and
// not, tool calls, reasoning, cached tokens, upstream errors and clients that leave mid-stream.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenDatabaseOptions } from '../../src/storage/open-database.js';
import { createClients } from '../helpers/matrix/clients.js';
import { INBOUNDS, MATRIX, type Inbound, type MatrixUpstream } from '../helpers/matrix/index.js';
import { startMockUpstream, type MockReply, type MockUpstream, type RecordedRequest } from '../helpers/mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';
import { DATABASE_URL } from '../helpers/test-database.js';
import { MATRIX_UPSTREAMS } from './matrix/upstreams.js';

type Variant = 'text' | 'tools' | 'reasoning' | 'error' | 'cut';
/** Rounds over every (client, upstream, stream, variant): about 240 requests each. */
const ROUNDS = 5;

/** What one request should leave in the ledger. */
interface Expected {
  userAgent: string;
  inbound: Inbound;
  upstream: MatrixUpstream;
  stream: boolean;
  variant: Variant;
}

/** The variant a recorded upstream request asks for: its marker, carried in the conversation. */
function variantOf(request: RecordedRequest): Variant {
  const text = JSON.stringify(request.body);
  for (const variant of ['tools', 'reasoning', 'error', 'cut'] as const) if (text.includes(`#${variant}#`)) return variant;
  return 'text';
}

/** The upstream's answer for a request, chosen from the request itself so that requests may run concurrently. */
function replyFor(upstream: MatrixUpstream, request: RecordedRequest): MockReply {
  const stream = upstream.isStream(request);
  const variant = variantOf(request);
  if (variant === 'error')
    return { status: 503, json: { error: { message: 'overloaded, try later', type: 'server_error', code: 'overloaded' } } };
  if (variant === 'tools') return upstream.reply({ toolCalls: [MATRIX.toolArguments] }, stream);
  if (variant === 'reasoning') return upstream.reply({ reasoning: true, text: MATRIX.text }, stream);
  const reply = upstream.reply({ text: MATRIX.text.repeat(variant === 'cut' ? 20 : 1) }, stream);
  // A client that leaves needs a stream slow enough to leave in the middle of.
  return variant === 'cut' && 'sse' in reply ? { ...reply, chunkBytes: 64, delayMs: 15 } : reply;
}

/** A streamed request read to its first bytes, then dropped: a client leaving mid-answer. */
async function leaveMidStream(running: RunningGateway, inbound: Inbound, model: string, userAgent: string): Promise<void> {
  const question = `#cut# ${MATRIX.question}`;
  const [path, body, headers] =
    inbound === 'chat'
      ? [
          '/v1/chat/completions',
          { model, stream: true, messages: [{ role: 'user', content: question }] },
          { authorization: `Bearer ${TEST_KEY}` },
        ]
      : inbound === 'responses'
        ? ['/v1/responses', { model, stream: true, input: question }, { authorization: `Bearer ${TEST_KEY}` }]
        : [
            '/v1/messages',
            { model, stream: true, max_tokens: 1024, messages: [{ role: 'user', content: question }] },
            { 'x-api-key': TEST_KEY, 'anthropic-version': '2023-06-01' },
          ];
  const controller = new AbortController();
  const response = await fetch(`${running.root}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent, ...headers },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  await reader.read();
  controller.abort();
  await reader.read().catch(() => undefined);
}

async function send(running: RunningGateway, expected: Expected): Promise<void> {
  const { inbound, upstream, stream, variant, userAgent } = expected;
  const model = `${upstream.name}-model`;
  if (variant === 'cut') return leaveMidStream(running, inbound, model, userAgent);
  const clients = createClients(running, { 'User-Agent': userAgent });
  const history = [`#${variant}#`, 'Noted.'];
  const asking =
    variant === 'tools'
      ? clients.ask(inbound, model, stream, { tools: true }, history)
      : clients.ask(inbound, model, stream, variant === 'reasoning' ? { reasoning: true } : {}, history);
  const outcome = await asking.then(
    () => 'ok',
    (error: unknown) => `error ${String((error as { status?: number }).status)}`,
  );
  expect(outcome, `${inbound} → ${upstream.name} ${variant}`).toBe(variant === 'error' ? outcome.startsWith('error') && outcome : 'ok');
}

/** Every combination once; variants an upstream cannot carry are left out. */
function combinations(): Array<Omit<Expected, 'userAgent'>> {
  const all: Array<Omit<Expected, 'userAgent'>> = [];
  for (const upstream of MATRIX_UPSTREAMS) {
    for (const inbound of INBOUNDS) {
      for (const stream of [false, true]) {
        const variants: Variant[] = ['text', 'tools', 'error'];
        if (upstream.supports.reasoning === true) variants.push('reasoning');
        if (stream) variants.push('cut');
        for (const variant of variants) all.push({ upstream, inbound, stream, variant });
      }
    }
  }
  return all;
}

async function runConcurrently<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

describe.each(['sqlite', 'postgres'] as const)('usage accuracy on %s', (engine) => {
  const files: string[] = [];
  const mocks: MockUpstream[] = [];
  let running: RunningGateway;
  let database: OpenDatabaseOptions;
  const schema = `test_${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    const file = (name: string) => {
      const path = join(tmpdir(), `switchyard-accuracy-${name}-${randomBytes(6).toString('hex')}.db`);
      files.push(path);
      return path;
    };
    database = engine === 'sqlite' ? { url: file('ledger') } : { url: DATABASE_URL, schema };
    const providers: Record<string, ReturnType<MatrixUpstream['createAdapter']>> = {};
    for (const upstream of MATRIX_UPSTREAMS) {
      const mock = await startMockUpstream();
      mock.reply((request) => replyFor(upstream, request));
      mocks.push(mock);
      providers[upstream.name] = upstream.createAdapter(mock.url);
    }
    running = await startGateway({
      database,
      providers,
      models: MATRIX_UPSTREAMS.map((upstream) => ({
        id: `${upstream.name}-model`,
        provider: upstream.name,
        upstreamModel: upstream.upstreamModel,
      })),
      ledger: { outbox: file('outbox'), intervalMs: 20 },
      // One attempt per request, so rows match runs one to one (rows of retried requests: routing-ledger.e2e).
      retries: { attempts: 0 },
    });
    await running.gateway.ready();
  });

  afterAll(async () => {
    await running.close();
    await running.gateway.close();
    for (const mock of mocks) await mock.close();
    for (const path of files) for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    if (engine === 'postgres') {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });

  it('should record, row for row, the usage every upstream reported', { timeout: 120_000 }, async () => {
    const runs: Expected[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const combination of combinations()) runs.push({ ...combination, userAgent: `accuracy/${runs.length}` });
    }
    expect(runs.length).toBeGreaterThanOrEqual(1_000);
    await runConcurrently(runs, 8, (run) => send(running, run));
    await running.gateway.close();

    const direct = await openDatabase({ ...database, migrate: false });
    const rows = await direct.db.selectFrom('usage_ledger').selectAll().execute();
    await direct.close();
    const byAgent = new Map(rows.map((row) => [row.user_agent, row]));
    expect(rows).toHaveLength(runs.length);
    expect(byAgent.size).toBe(runs.length);

    for (const run of runs) {
      const row = byAgent.get(run.userAgent);
      const where = `${run.inbound} → ${run.upstream.name} ${run.stream ? 'stream' : 'json'} ${run.variant}`;
      expect(row, where).toBeDefined();
      expect({ model: row?.model, protocol: row?.protocol, stream: row?.stream }, where).toEqual({
        model: `${run.upstream.name}-model`,
        protocol: run.inbound,
        stream: run.stream ? 1 : 0,
      });
      if (run.variant === 'error') {
        expect({ billing: row?.billing, input: row?.input_tokens, output: row?.output_tokens }, where).toEqual({
          billing: 'failed',
          input: null,
          output: null,
        });
        expect(row?.status, where).toBeGreaterThanOrEqual(500);
      } else if (run.variant === 'cut') {
        expect({ billing: row?.billing, source: row?.usage_source }, where).toEqual({ billing: 'partial', source: 'estimated' });
        expect(Number(row?.input_tokens), where).toBeGreaterThan(0);
        expect(Number(row?.output_tokens), where).toBeGreaterThan(0);
      } else {
        const reported = {
          billing: 'complete',
          source: 'reported',
          input: MATRIX.usage.input,
          cached: MATRIX.usage.cached,
          output: MATRIX.usage.output,
        };
        expect(
          {
            billing: row?.billing,
            source: row?.usage_source,
            input: row?.input_tokens,
            cached: row?.cached_input_tokens,
            output: row?.output_tokens,
          },
          where,
        ).toEqual(reported);
        if (run.variant === 'reasoning' && run.upstream.supports.reasoningTokens)
          expect(row?.reasoning_tokens, where).toBe(MATRIX.usage.reasoning);
      }
    }
  });
});
