// Switchyard as users run it: compiled output (`dist/`, through the package's own export), API keys
// on, three providers (`openai`, `openai-responses`, `anthropic`) pointed at the mock upstream, a
// model on each, so every path is measured in a server that also serves the others. Served from a bare
// `node:http` server, as the standalone server does; `BENCH_HOST=express` mounts it in an Express
// app instead. Usage: node gateway-server.js <upstream url>
// `BENCH_PROVIDER=mock` serves the built-in mock provider instead (no upstream; harness checks only).
// `BENCH_LIMITS=memory|redis` turns on per-key limits set too high to refuse anything (Redis: REDIS_URL,
// prefix BENCH_REDIS_PREFIX), so the cost of counting is measured, not refusals.
// `BENCH_STORE=sqlite|postgres` turns on stored keys and the usage ledger (BENCH_DATABASE: the SQLite
// file, or the PostgreSQL URL; BENCH_SCHEMA its schema) and prints `key <stored key>` for the load to use.
// `BENCH_OPS=log|metrics|on` turns on the request log (a JSON line per request to the file BENCH_LOG_FILE,
// batched as `requestLog: true` writes to stdout), the Prometheus metrics, or both.
// `BENCH_UNUSUAL_SPEND=off` (with BENCH_STORE) turns the unusual-spend watch off, which the ledger otherwise brings;
// `BENCH_UNUSUAL_SPEND_EVERY_MS` sets how often it checks, `BENCH_KEY_CACHE_TTL_MS` how long a stored key's lookup is trusted;
// `BENCH_LEASE_MS` (with BENCH_LIMITS) sets the limits' `leaseMs`.
// `BENCH_WINDOW_MS` sets how long ledger rows and request-log lines gather before a commit or write,
// `BENCH_CHECKPOINT_EVERY_MS` how often the ledger's SQLite files are checkpointed in the background.
// `BENCH_MONEY=budget|balance` (with BENCH_STORE) prices the chat model and holds the stored key to a
// budget, or makes it a console account's key with a balance (`balances` on), both far too large to refuse.
// `BENCH_TRACING=on` traces each request to a tracer that keeps its spans until they end (bench/bench-tracer.ts);
// `BENCH_POLICY=layers` sets a request policy of every kind of rule, with a layer for the API key;
// `BENCH_USER_STAGE=on` adds a user's stage (before and after parts that read the context, just before `call`).
// `BENCH_ROUTING=memory|redis` serves the chat model from two deployments (two providers on the same
// upstream, weighted) with a fallback model, so every request is routed and reads the cooldowns (in
// this process, or in Redis at REDIS_URL with prefix BENCH_REDIS_PREFIX); none ever fails.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { gateway, type GatewayOptions, type Logger } from 'switchyard-gateway';
import { BenchTracer } from './bench-tracer.js';
import { BENCH_ANTHROPIC_MODEL, BENCH_KEY, BENCH_MODEL, BENCH_RESPONSES_MODEL, UPSTREAM_MODEL } from './bodies.js';

const upstream = process.argv[2] ?? 'http://127.0.0.1:8080';
const mock = process.env.BENCH_PROVIDER === 'mock';
const providers: GatewayOptions['providers'] = mock
  ? { mock: { type: 'mock', chunks: 50 } }
  : {
      openai: { apiKey: 'sk-upstream-bench', baseURL: `${upstream}/v1` },
      'openai-b': { type: 'openai', apiKey: 'sk-upstream-bench', baseURL: `${upstream}/v1` },
      'openai-responses': { apiKey: 'sk-upstream-bench', baseURL: `${upstream}/v1` },
      anthropic: { apiKey: 'sk-upstream-bench', baseURL: upstream },
    };
const routing = process.env.BENCH_ROUTING;
const money = process.env.BENCH_MONEY;
// A budget or a balance needs each model's price.
const priced = money === undefined ? {} : { price: { input: 1, output: 1 } };
const chatModel: NonNullable<GatewayOptions['models']>[number] =
  routing === undefined || mock
    ? { id: BENCH_MODEL, provider: mock ? 'mock' : 'openai', upstreamModel: UPSTREAM_MODEL, ...priced }
    : {
        id: BENCH_MODEL,
        deployments: [{ provider: 'openai' }, { provider: 'openai-b' }],
        upstreamModel: UPSTREAM_MODEL,
        fallbacks: [BENCH_RESPONSES_MODEL],
      };
const models: GatewayOptions['models'] = [
  chatModel,
  { id: BENCH_RESPONSES_MODEL, provider: mock ? 'mock' : 'openai-responses', upstreamModel: UPSTREAM_MODEL, ...priced },
  { id: BENCH_ANTHROPIC_MODEL, provider: mock ? 'mock' : 'anthropic', upstreamModel: UPSTREAM_MODEL, ...priced },
];

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

const store = process.env.BENCH_STORE;
const database =
  store === undefined
    ? undefined
    : store === 'postgres'
      ? { url: process.env.BENCH_DATABASE ?? '', schema: process.env.BENCH_SCHEMA ?? 'bench' }
      : (process.env.BENCH_DATABASE ?? '');

const sharedRedis = { redis: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', redisPrefix: process.env.BENCH_REDIS_PREFIX ?? 'bench:' };
const limitsMode = process.env.BENCH_LIMITS;
const limits: Partial<GatewayOptions> =
  limitsMode === undefined
    ? {}
    : {
        // Out of reach (the bench sends at most a few hundred million tokens a minute), and under
        // 2^30 as real limits are: V8 keeps such numbers as small integers, where a larger one is a
        // heap number whose every formatting (headers, the Redis batch) takes the slow path.
        limits: {
          perKey: { requestsPerMinute: 100_000_000, tokensPerMinute: 1_000_000_000, concurrency: 100_000 },
          ...(process.env.BENCH_LEASE_MS === undefined ? {} : { leaseMs: Number(process.env.BENCH_LEASE_MS) }),
        },
        ...(limitsMode === 'redis' ? sharedRedis : {}),
      };

const opsMode = process.env.BENCH_OPS;
// How long ledger rows and request-log lines gather before one commit or write (default 10 ms):
// the instruction mode stretches it by callgrind's slowdown (bench/instructions.ts).
const windowMs = process.env.BENCH_WINDOW_MS === undefined ? undefined : Number(process.env.BENCH_WINDOW_MS);
// The request log as `requestLog: true` writes stdout (lines held up to 10 ms, then one write), to a file.
const requestLog = () => ({ file: process.env.BENCH_LOG_FILE ?? '/dev/null', ...(windowMs === undefined ? {} : { flushMs: windowMs }) });
const ledger = {
  ...(process.env.BENCH_OUTBOX ? { outbox: process.env.BENCH_OUTBOX } : {}),
  ...(windowMs === undefined ? {} : { commitEveryMs: windowMs }),
  ...(process.env.BENCH_CHECKPOINT_EVERY_MS === undefined ? {} : { checkpointEveryMs: Number(process.env.BENCH_CHECKPOINT_EVERY_MS) }),
};
const ops: Partial<GatewayOptions> = {
  ...(opsMode === 'log' || opsMode === 'on' ? { requestLog: requestLog() } : {}),
  ...(opsMode === 'metrics' || opsMode === 'on' ? { metrics: true } : {}),
};

// The pipeline's other stages, one at a time: traces, a request policy with every kind of rule, a user's stage.
const tracer = new BenchTracer();
let userStageAnswered = 0;
const stageOptions: Partial<GatewayOptions> = {
  ...(process.env.BENCH_TRACING === 'on' ? { tracing: { tracer } } : {}),
  ...(process.env.BENCH_POLICY === 'layers'
    ? {
        requestPolicy: {
          fields: { service_tier: 'allow', store: 'strip', 'x-*': 'refuse' },
          tools: { web_search: 'allow', mcp: 'refuse' },
          anthropicBetas: { 'context-1m-*': 'refuse' },
          maxChoices: 2,
          maxOutputTokens: 16_000,
          keys: { options: { fields: { metadata: 'allow' }, maxOutputTokens: 8_000 } },
        },
      }
    : {}),
  ...(process.env.BENCH_USER_STAGE === 'on'
    ? {
        stages: [
          {
            name: 'bench-stage',
            // What a stage of one's own typically reads: who calls, which model, how it ended.
            before(context) {
              if (context.caller === undefined || context.model.length === 0) throw new Error('the bench stage saw no caller');
            },
            after(context) {
              if (context.status === 200) userStageAnswered += 1;
            },
          },
        ],
      }
    : {}),
};

// The watch and the key cache come with a database.
const storedClock: Partial<GatewayOptions> = {
  ...(process.env.BENCH_UNUSUAL_SPEND === 'off'
    ? { unusualSpend: false as const }
    : process.env.BENCH_UNUSUAL_SPEND_EVERY_MS === undefined
      ? {}
      : { unusualSpend: { checkIntervalMs: Number(process.env.BENCH_UNUSUAL_SPEND_EVERY_MS) } }),
  ...(process.env.BENCH_KEY_CACHE_TTL_MS === undefined ? {} : { keyCacheTtlMs: Number(process.env.BENCH_KEY_CACHE_TTL_MS) }),
};

const handler = gateway({
  apiKeys: [BENCH_KEY],
  ...ops,
  providers,
  models,
  logger: silentLogger,
  ...limits,
  ...(routing === 'redis' ? sharedRedis : {}),
  ...(database === undefined ? {} : { database, ledger }),
  ...(database === undefined ? {} : storedClock),
  ...(money === 'balance' ? { balances: {} } : {}),
  ...stageOptions,
});
if (database !== undefined) {
  await handler.ready();
  const { key, stored } = await handler.keys!.create({
    name: 'bench',
    ...(money === 'budget' ? { budget: { nanoUsd: 1e18, period: 'never' as const } } : {}),
  });
  if (money === 'balance') {
    // A console account owning the key, with a balance no run spends (rows as the console writes them).
    const db = await handler.storage!();
    await db
      .insertInto('console_users')
      .values({ id: 'bench-user', email: 'bench@example.com', password_hash: 'x', is_admin: 0, created_at: Date.now() })
      .execute();
    await db.insertInto('console_key_owners').values({ key_public_id: stored.publicId, user_id: 'bench-user' }).execute();
    await db
      .insertInto('account_balance_ledger')
      .values({
        id: 'bench-top-up',
        account_id: 'bench-user',
        at: Date.now(),
        kind: 'top-up',
        amount_nano_usd: 1e18,
        actor_id: 'bench',
        note: null,
        request_id: null,
      })
      .execute();
  }
  process.stdout.write(`key ${key}\n`);
}

const server = process.env.BENCH_HOST === 'express' ? createServer(express().use(handler)) : createServer(handler);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  // Which stages a request runs in this configuration: the bench's tables name them.
  process.stdout.write(`stages ${handler.stagesFor(BENCH_MODEL).join(',')}\n`);
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
// `--cpu-prof` writes its profile on a normal exit, so SIGTERM exits normally.
process.on('SIGTERM', () => {
  // What the other stages saw, for the bench to check that they ran (stdout is a pipe: written at once).
  if (process.env.BENCH_TRACING === 'on') process.stdout.write(`spans ended ${tracer.ended}\n`);
  if (process.env.BENCH_USER_STAGE === 'on') process.stdout.write(`user stage answered ${userStageAnswered}\n`);
  // The ledger's rows are written before the exit, as a graceful stop does.
  void handler.close().finally(() => process.exit(0));
});
