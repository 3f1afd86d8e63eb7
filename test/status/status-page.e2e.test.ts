import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createOpenAICompatibleProvider } from '../../src/providers/openai-compatible/index.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { ProbeLock } from '../../src/status/probe-lock.js';
import { ProbeScheduler } from '../../src/status/probe-scheduler.js';
import { statusPage, type StatusPage } from '../../src/status/status-page.js';
import { statusSourceOf } from '../../src/status/status-source.js';
import type { StatusReport } from '../../src/status/status-report.js';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { startMockUpstream, sseText, type MockReply, type MockUpstream, type RecordedRequest } from '../helpers/mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';
import { useScratch } from '../helpers/scratch.js';

const scratch = useScratch();
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PROMPT = 'The secret prompt is purple-elephant-4711';

/** A Chat Completions answer: JSON, or (for a stream) SSE in pieces 15 ms apart, so it takes time to produce. */
function chatAnswer(request: RecordedRequest): MockReply {
  const body = request.body as { stream?: boolean; model?: string };
  const usage = { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 };
  if (!body.stream) {
    return {
      json: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'All good.' }, finish_reason: 'stop' }],
        usage,
      },
    };
  }
  const chunk = (delta: object, finish: string | null = null, extra: object = {}) => ({
    data: {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: body.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    },
  });
  return {
    sse: sseText([
      chunk({ role: 'assistant', content: 'All ' }),
      chunk({ content: 'good.' }),
      chunk({}, 'stop'),
      { data: { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [], usage } },
      { data: '[DONE]' },
    ]),
    chunkBytes: 120,
    delayMs: 15,
  };
}

const failure = (status: number): MockReply => ({ status, json: { error: { message: `upstream says ${status}`, type: 'server_error' } } });

async function upstreamOf(...replies: Array<MockReply | ((request: RecordedRequest) => MockReply)>): Promise<MockUpstream> {
  const upstream = await startMockUpstream();
  upstream.reply(...(replies.length === 0 ? [chatAnswer] : replies));
  scratch.later(() => upstream.close());
  return upstream;
}

const provider = (id: string, upstream: MockUpstream) =>
  createOpenAICompatibleProvider({ id, baseURL: `${upstream.url}/v1`, apiKey: 'sk-upstream-0123456789abcdef' });

async function serve(options: GatewayOptions): Promise<RunningGateway> {
  // One attempt per request, so each request is one ledger row (the page counts attempts: a retry is a row of its own).
  const running = await startGateway({ ledger: { outbox: scratch.file('outbox'), intervalMs: 5 }, retries: { attempts: 0 }, ...options });
  scratch.later(() => running.gateway.close());
  scratch.later(() => running.close());
  await running.gateway.ready();
  return running;
}

/** Mounts the status page beside the gateway's own server (its own port), closed after the test. */
async function pageOf(
  running: RunningGateway,
  options: Parameters<typeof statusPage>[1] = { cacheMs: 0, probe: false },
): Promise<{ page: StatusPage; get(path: string): Promise<Response> }> {
  const page = statusPage(running.gateway, options);
  scratch.later(() => page.close());
  const express = (await import('express')).default;
  const app = express();
  app.use(page);
  const server = await new Promise<import('node:http').Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  scratch.later(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as import('node:net').AddressInfo;
  return { page, get: (path) => fetch(`http://127.0.0.1:${port}${path}`) };
}

/** Waits (up to `waitMs`) until the ledger holds `count` rows (the writer batches them). */
async function ledgerRows(database: { url: string; schema?: string }, count: number, waitMs = 5_000) {
  const direct = await openDatabase({ ...database, migrate: false });
  try {
    for (let waited = 0; ; waited += 20) {
      const rows = await direct.db.selectFrom('usage_ledger').selectAll().execute();
      if (rows.length >= count || waited > waitMs) return rows;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await direct.close();
  }
}

const modelOf = (report: StatusReport, id: string) => {
  const model = report.models.find((entry) => entry.id === id);
  if (model === undefined) throw new Error(`no ${id} in ${JSON.stringify(report)}`);
  return model;
};

describe.each(['sqlite', 'postgres'] as const)('the status page on %s', (engine) => {
  it('should show each model’s figures from real traffic: success, 429s, upstream errors, first token, speed, last error', async () => {
    const database = scratch.database(engine);
    const steady = await upstreamOf(chatAnswer, chatAnswer, chatAnswer, failure(429), chatAnswer, {
      status: 400,
      json: {
        error: { message: 'This model cannot take that many tokens.', type: 'invalid_request_error', code: 'context_length_exceeded' },
      },
    });
    const shaky = await upstreamOf(chatAnswer, chatAnswer, failure(500), failure(500));
    const running = await serve({
      database,
      providers: { steady: provider('steady', steady), shaky: provider('shaky', shaky) },
      models: [
        { id: 'steady-model', provider: 'steady' },
        { id: 'shaky-model', provider: 'shaky' },
        { id: 'quiet-model', provider: 'steady' },
      ],
    });
    const { key } = await running.gateway.keys!.create({ name: 'alice-laptop' });
    const openai = new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const anthropic = new Anthropic({ apiKey: key, baseURL: running.root, maxRetries: 0 });
    const ask = (model: string, stream: boolean) =>
      stream
        ? openai.chat.completions
            .create({ model, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: PROMPT }] })
            .then(async (chunks) => {
              for await (const _ of chunks) void _;
            })
        : openai.chat.completions.create({ model, messages: [{ role: 'user', content: PROMPT }] });

    // steady: 2 streams, 1 plain, 1 Messages request, then a 429 from the upstream.
    await ask('steady-model', true);
    await ask('steady-model', true);
    await ask('steady-model', false);
    const limited = await ask('steady-model', false).catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    await anthropic.messages.create({ model: 'steady-model', max_tokens: 50, messages: [{ role: 'user', content: PROMPT }] });
    // shaky: 2 answers, then 2 failures.
    await ask('shaky-model', true);
    await ask('shaky-model', false);
    for (const _ of [1, 2]) expect(await ask('shaky-model', false).catch((error: unknown) => error)).toBeInstanceOf(OpenAI.APIError);
    // A caller's own mistake (the upstream's 400) is counted as a request, but says nothing of the model's health.
    expect(await ask('steady-model', false).catch((error: unknown) => error)).toBeInstanceOf(OpenAI.BadRequestError);
    const rows = await ledgerRows(database, 10);
    expect(rows).toHaveLength(10);

    // A failure two days ago: in the week, not in the hour or the day.
    const direct = await openDatabase({ ...database, migrate: false });
    await direct.db
      .insertInto('usage_ledger')
      .values({
        ...rows[0]!,
        cost_nano_usd: null,
        request_id: 'req_old',
        at: Date.now() - 2 * 86_400_000,
        status: 502,
        error_code: 'UPSTREAM_UNREACHABLE',
        billing: 'failed',
        first_token_ms: null,
      })
      .execute();
    await direct.close();

    const { get } = await pageOf(running);
    const answer = await get('/status.json');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const report = (await answer.json()) as StatusReport;
    expect(report.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(report.ledger).toBe(true);
    expect(report.uptimeSeconds).toBeGreaterThanOrEqual(0);

    const steadyStatus = modelOf(report, 'steady-model');
    expect(steadyStatus.windows.hour).toMatchObject({
      requests: 6,
      counted: 5,
      successRate: 0.8,
      rateLimitedRate: 0.2,
      upstreamErrorRate: 0,
      probes: 0,
    });
    expect(steadyStatus.windows.day).toEqual(steadyStatus.windows.hour);
    expect(steadyStatus.windows.week).toMatchObject({
      requests: 7,
      counted: 6,
      successRate: 0.6667,
      rateLimitedRate: 0.1667,
      upstreamErrorRate: 0.1667,
    });
    expect(steadyStatus.state).toBe('degraded');
    expect(steadyStatus.lastError).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    // Time to first token: the two successful streams.
    const steadyStreams = rows.filter((row) => row.model === 'steady-model' && row.first_token_ms !== null && row.status === 200);
    expect(steadyStreams).toHaveLength(2);
    const [low, high] = steadyStreams.map((row) => Number(row.first_token_ms)).sort((a, b) => a - b) as [number, number];
    expect(steadyStatus.windows.hour.firstTokenMs).toEqual({
      p50: Math.round((low + high) / 2),
      p95: Math.round(low + (high - low) * 0.95),
      samples: 2,
    });
    // Output speed: output tokens over the time spent producing them, successful answers only.
    const producing = rows.filter(
      (row) => row.model === 'steady-model' && row.billing === 'complete' && Number(row.latency_ms) - Number(row.first_token_ms ?? 0) > 0,
    );
    const tokens = producing.reduce((sum, row) => sum + Number(row.output_tokens), 0);
    const ms = producing.reduce((sum, row) => sum + Number(row.latency_ms) - Number(row.first_token_ms ?? 0), 0);
    expect(steadyStatus.windows.hour.outputTokensPerSecond).toBeCloseTo((tokens * 1000) / ms, 1);

    const shakyStatus = modelOf(report, 'shaky-model');
    expect(shakyStatus.windows.hour).toMatchObject({
      requests: 4,
      counted: 4,
      successRate: 0.5,
      rateLimitedRate: 0,
      upstreamErrorRate: 0.5,
    });
    expect(shakyStatus.state).toBe('degraded');
    expect(shakyStatus.lastError?.code).toBe('UPSTREAM_ERROR');
    expect(shakyStatus.lastError?.status).toBeGreaterThanOrEqual(500);

    const quiet = modelOf(report, 'quiet-model');
    expect(quiet).toMatchObject({ state: 'no-traffic', lastError: null, lastRequestAt: null });
    expect(quiet.windows.week).toMatchObject({ requests: 0, successRate: null, firstTokenMs: null });

    // The HTML page says the same, and nothing of who asked what.
    const page = await get('/status');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).not.toContain('<script');
    expect(html).toMatch(/<h2 id="model-1"><code>shaky-model<\/code> <span class="state state-degraded">Degraded<\/span><\/h2>/);
    expect(html).toMatch(/<th scope="row">Success rate<\/th><td>80\.0 %<\/td><td>80\.0 %<\/td><td>66\.7 %<\/td>/);
    expect(html).toContain('<code>UPSTREAM_ERROR</code>');
    for (const secret of [key, key.slice(0, 20), PROMPT, 'purple-elephant', 'alice-laptop', TEST_KEY, 'sk-upstream']) {
      expect(html).not.toContain(secret);
      expect(JSON.stringify(report)).not.toContain(secret);
    }
  });
});

describe('the status page of several instances', () => {
  it('should show the same figures on two instances that share one PostgreSQL', async () => {
    const database = scratch.postgres();
    const upstream = await upstreamOf(chatAnswer, failure(503), chatAnswer);
    const options = {
      database,
      providers: { up: provider('up', upstream) },
      models: [{ id: 'shared-model', provider: 'up' }],
      apiKeys: [TEST_KEY],
    };
    const first = await serve(options);
    const second = await serve(options);
    const clientOf = (running: RunningGateway) => new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    await clientOf(first).chat.completions.create({ model: 'shared-model', messages: [{ role: 'user', content: 'one' }] });
    expect(
      await clientOf(second)
        .chat.completions.create({ model: 'shared-model', messages: [{ role: 'user', content: 'two' }] })
        .catch((e: unknown) => e),
    ).toBeInstanceOf(OpenAI.APIError);
    await clientOf(second).chat.completions.create({ model: 'shared-model', messages: [{ role: 'user', content: 'three' }] });
    await ledgerRows(database, 3);

    const reports = await Promise.all(
      [first, second].map(async (running) => (await (await pageOf(running)).get('/status.json')).json() as Promise<StatusReport>),
    );
    const [a, b] = reports.map((report) => report.models) as [StatusReport['models'], StatusReport['models']];
    expect(a).toEqual(b);
    expect(a[0]?.windows.hour).toMatchObject({ requests: 3, successRate: 0.6667, upstreamErrorRate: 0.3333 });
    expect(a[0]?.lastError?.code).toBe('UPSTREAM_ERROR');
    expect(a[0]?.lastError?.status).toBe(503);
  });

  it('should compute the page once per cache period however many ask', async () => {
    const database = scratch.database('sqlite');
    const running = await serve({ database, models: [{ id: 'mock', provider: 'mock' }] });
    const { page } = await pageOf(running, { cacheMs: 60_000, probe: false });
    const before = await page.report();
    await new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 }).chat.completions.create({
      model: 'mock',
      messages: [{ role: 'user', content: 'hi' }],
    });
    await ledgerRows(database, 1);
    const after = await page.report();
    // Within the cache period the figures stay as computed (the ledger is not read again).
    expect(after.generatedAt).toBe(before.generatedAt);
    expect(modelOf(after, 'mock').windows.hour.requests).toBe(0);
    const fresh = statusPage(running.gateway, { cacheMs: 0, probe: false });
    scratch.later(() => fresh.close());
    expect(modelOf(await fresh.report(), 'mock').windows.hour.requests).toBe(1);
  });
});

describe.each(['redis', 'database lease'] as const)('the status probe with a %s', (lock) => {
  /** Two instances on one database (and one Redis prefix, for a Redis lock), each calling an upstream of its own as `up`. */
  const twoInstances = async (options: Pick<GatewayOptions, 'models' | 'ledger'>) => {
    const database = scratch.postgres();
    const prefix = `switchyard-test-${randomBytes(6).toString('hex')}:`;
    const redis = lock === 'redis' ? new Redis(REDIS_URL) : undefined;
    if (redis !== undefined) scratch.later(() => redis.quit());
    const upstreams = [await upstreamOf(), await upstreamOf()];
    const instances = await Promise.all(
      upstreams.map((upstream) =>
        serve({
          database,
          apiKeys: [TEST_KEY],
          ...(redis === undefined ? {} : { redis, redisPrefix: prefix }),
          providers: { up: provider('up', upstream) },
          ...options,
        }),
      ),
    );
    return { database, upstreams, instances };
  };

  it('should probe only the idle models, from one instance of two, and record its cost as caller probe', async () => {
    const { database, upstreams, instances } = await twoInstances({
      models: [
        { id: 'busy-model', provider: 'up' },
        { id: 'idle-model', provider: 'up', price: { input: 1, output: 4 } },
      ],
    });
    // Both instances start their probe at once (its first round in the middle of a round of the clock at least half an
    // interval later, 2 to 6 s here); the lock lets one of them run the round. The busy model has traffic every 500 ms
    // from before the start until the probe's row is written, so whenever the round comes it is active within the interval.
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: instances[0]!.openAIBaseURL, maxRetries: 0 });
    const busy = () => client.chat.completions.create({ model: 'busy-model', messages: [{ role: 'user', content: 'busy' }] });
    await busy();
    let traffic = true;
    const busyTraffic = (async () => {
      while (traffic) {
        await busy();
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    })();
    const pages = await Promise.all(
      instances.map((running) => pageOf(running, { cacheMs: 0, probe: { intervalMs: 4_000, maxOutputTokens: 1 } })),
    );
    const probeRowsOf = (rows: Awaited<ReturnType<typeof ledgerRows>>) => rows.filter((row) => row.key_public_id === 'probe');
    for (let waited = 0; probeRowsOf(await ledgerRows(database, 1)).length === 0 && waited < 10_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Stopped before the next round, then given time for a second prober (there must be none) to write its row.
    await Promise.all(pages.map(({ page }) => page.close()));
    traffic = false;
    await busyTraffic;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const probeRows = probeRowsOf(await ledgerRows(database, 1));
    expect(probeRows).toHaveLength(1);
    expect(probeRows[0]).toMatchObject({
      model: 'idle-model',
      status: 200,
      billing: 'complete',
      user_agent: 'switchyard-probe',
      input_tokens: 12,
      output_tokens: 6,
    });
    // Its cost, at the model's price: 12 input tokens at $1/M and 6 output at $4/M.
    expect(Number(probeRows[0]?.cost_nano_usd)).toBe(12 * 1_000 + 6 * 4_000);
    // The busy model's traffic went to the first instance's upstream; the probe went to one upstream of the two.
    const probesOf = (upstream: MockUpstream) =>
      upstream.requests.filter((request) => (request.body as { model?: string }).model === 'idle-model');
    expect(upstreams.map((upstream) => probesOf(upstream).length).sort()).toEqual([0, 1]);
    const sent = upstreams.flatMap(probesOf)[0]?.body as {
      max_tokens?: number;
      max_completion_tokens?: number;
      model: string;
    };
    expect(sent.max_tokens ?? sent.max_completion_tokens).toBe(1);

    const report = (await (await pages[1]!.get('/status.json')).json()) as StatusReport;
    expect(report.probe).toEqual({ enabled: true, intervalMs: 4_000 });
    expect(modelOf(report, 'idle-model')).toMatchObject({
      state: 'operational',
      windows: { hour: { requests: 1, probes: 1, successRate: 1 } },
    });
    expect(modelOf(report, 'idle-model').lastProbeAt).not.toBeNull();
    expect(modelOf(report, 'busy-model').windows.hour.probes).toBe(0);
  });

  it('should probe each round once, though one instance’s timer fires later than 0.9 of the interval', async () => {
    const { upstreams, instances } = await twoInstances({
      models: [{ id: 'idle-model', provider: 'up' }],
      // A ledger writer that is behind: the probe's row is not read back in the round, so only the lock stops a second probe.
      ledger: { outbox: scratch.file('outbox'), intervalMs: 60_000 },
    });
    const intervalMs = 300;
    const [onTime, late] = instances.map((running) => {
      const source = statusSourceOf(running.gateway);
      if (source === undefined) throw new Error('no status source');
      return new ProbeScheduler(source, new ProbeLock(source.redis, source.redisPrefix), {
        intervalMs,
        maxOutputTokens: 1,
        timeoutMs: 10_000,
      });
    }) as [ProbeScheduler, ProbeScheduler];
    // The rounds are run with the clock their timers would read: a round begins at `start`.
    const start = Math.floor(Date.now() / intervalMs) * intervalMs;
    expect(await onTime.round(start + 10)).toEqual(['idle-model']);
    // The same instance again within the round (a timer firing twice): no second probe.
    expect(await onTime.round(start + 20)).toEqual([]);
    // The other instance's timer fires late, past 0.9 of the interval (as long as a lock used to last), still in the round.
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    expect(await late.round(start + intervalMs - 10)).toEqual([]);
    // A later round: both instances try it at once, and one of them probes.
    const later = start + 100 * intervalMs;
    const probed = await Promise.all([onTime.round(later + 5), late.round(later + 5)]);
    expect(probed.map((models) => models.length).sort()).toEqual([0, 1]);
    // An instance whose clock is behind, still in an earlier round, does not probe that round after the later one was.
    expect(await onTime.round(later - intervalMs + 5)).toEqual([]);
    expect(upstreams.map((upstream) => upstream.requests.length).reduce((sum, count) => sum + count)).toBe(2);
  });
});
