// A bounded soak: about a minute of concurrent mixed traffic — Chat, Responses and Messages,
// streamed and not, through the official SDKs — against upstreams that fail on purpose (5xx bursts,
// 429s with retry-after, resets before and after output, error frames inside a 200 stream, slow
// first tokens, streams gone quiet, hangs), with clients that leave early. Then, once the traffic
// stopped and the gateway settled: every request got an answer or an error its SDK recognised, and
// nothing stayed behind — sockets, timers, limit slots, open requests, listeners, heap.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { Agent, fetch as undiciFetch } from 'undici';
import { expect, it } from 'vitest';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { startFaultUpstream, type Fault, type FaultUpstream } from '../helpers/fault-upstream.js';
import { useScratch } from '../helpers/scratch.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';
import { chatFrames, messagesFrames, startTimedUpstream, type TimedStep, type TimedUpstream } from '../helpers/timed-upstream.js';

/** Overridable to try a change quickly (`SOAK_MS=10000`); CI runs the full minute. */
const SOAK_MS = Number(process.env.SOAK_MS ?? 60_000);
const WORKERS = 12;
/** The key's concurrency: below the workers, so the limit refuses and queues during the soak. */
const CONCURRENCY = 8;
/** Far above any answer's worst case here (3 attempts of at most 1 s, then a fallback): reaching it is a hang. */
const REQUEST_DEADLINE_MS = 30_000;

const scratch = useScratch();

/** A seeded generator (mulberry32): the same mix of faults and requests on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(15);
const pick = <T>(weighted: Array<[number, T]>): T => {
  const total = weighted.reduce((sum, [weight]) => sum + weight, 0);
  let roll = random() * total;
  for (const [weight, value] of weighted) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return weighted[weighted.length - 1]![1];
};

/** Mostly answers, with every fault the fault upstream knows. */
const faultMix = (): Fault[] =>
  Array.from({ length: 20_000 }, () =>
    pick<Fault>([
      [55, { kind: 'ok' }],
      [8, { kind: 'ok', delayMs: 150 }],
      [8, { kind: 'status', status: 503 }],
      [4, { kind: 'status', status: 500 }],
      [3, { kind: 'status', status: 529 }],
      [5, { kind: 'status', status: 429, retryAfter: '0.1' }],
      [3, { kind: 'status', status: 429, retryAfter: '5' }],
      [5, { kind: 'reset' }],
      [5, { kind: 'reset-after-output' }],
      [4, { kind: 'error-frame' }],
    ]),
  );

/** Slow first tokens (within and past `firstTokenMs`), quiet gaps past `idleMs`, hangs, and plain answers. */
function timedMix(frames: { opening: string; deltas: (text: string) => string; closing: string }): TimedStep[][] {
  const { opening, deltas, closing } = frames;
  return Array.from({ length: 10_000 }, () =>
    pick<TimedStep[]>([
      [35, [{ headers: true }, { write: opening + deltas('Hello') + closing }]],
      [20, [{ headers: true }, { write: opening }, { waitMs: 400 }, { write: deltas('Slow') + closing }]],
      [10, [{ waitMs: 300 }, { headers: true }, { write: opening + deltas('Late') + closing }]],
      [15, [{ headers: true }, { write: opening + deltas('Then') }, { waitMs: 900 }, { write: deltas(' quiet') + closing }]],
      [10, [{ headers: true }, { write: opening }, { waitMs: 1_400 }, { write: deltas('Too late') + closing }]],
      [5, [{ hang: true }]],
      [5, [{ headers: true }, { write: opening + deltas('Hung') }, { hang: true }]],
    ]),
  );
}

type Outcome = 'answer' | 'api-error' | 'in-band-error' | 'aborted' | 'hang' | 'truncated' | 'connection-error' | 'other';

interface Clients {
  openai: OpenAI;
  anthropic: Anthropic;
  agent: Agent;
}

/** SDK clients on an undici Agent of their own, so their kept-alive sockets can be closed at the end. */
function clientsFor(running: RunningGateway): Clients {
  const agent = new Agent({ keepAliveTimeout: 4_000 });
  const fetch = ((url: string, init: Record<string, unknown>) => undiciFetch(url, { ...init, dispatcher: agent })) as never;
  return {
    openai: new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0, fetch }),
    anthropic: new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0, fetch }),
    agent,
  };
}

type Call = (clients: Clients, signal: AbortSignal, afterFirstEvent: () => void) => Promise<'answer' | 'in-band-error' | 'truncated'>;

const prompt = [{ role: 'user' as const, content: 'Hi' }];

const calls: Record<string, Call> = {
  async chat({ openai }, signal) {
    const completion = await openai.chat.completions.create({ model: 'pair', messages: prompt }, { signal });
    return typeof completion.choices[0]?.message.content === 'string' ? 'answer' : 'truncated';
  },
  async chatStream({ openai }, signal, first) {
    const model = random() < 0.5 ? 'pair' : 'slow-chat';
    const stream = await openai.chat.completions.create(
      { model, messages: prompt, stream: true, stream_options: { include_usage: true } },
      { signal },
    );
    let finished = false;
    for await (const chunk of stream) {
      first();
      if (chunk.choices[0]?.finish_reason != null) finished = true;
    }
    return finished ? 'answer' : 'truncated';
  },
  async responses({ openai }, signal) {
    const response = await openai.responses.create({ model: random() < 0.5 ? 'pair' : 'claude', input: 'Hi' }, { signal });
    return response.output_text.length > 0 ? 'answer' : 'truncated';
  },
  async responsesStream({ openai }, signal, first) {
    const stream = await openai.responses.create(
      {
        model: pick([
          [1, 'pair'],
          [1, 'claude'],
          [1, 'slow-chat'],
        ]),
        input: 'Hi',
        stream: true,
      },
      { signal },
    );
    let end: 'answer' | 'in-band-error' | 'truncated' = 'truncated';
    for await (const event of stream) {
      first();
      if (event.type === 'response.completed' || event.type === 'response.incomplete') end = 'answer';
      if (event.type === 'response.failed' || event.type === 'error') end = 'in-band-error';
    }
    return end;
  },
  async messages({ anthropic }, signal) {
    const message = await anthropic.messages.create(
      { model: random() < 0.5 ? 'claude' : 'pair', max_tokens: 50, messages: prompt },
      { signal },
    );
    return message.content.length > 0 ? 'answer' : 'truncated';
  },
  async messagesStream({ anthropic }, signal, first) {
    const model = pick([
      [2, 'claude'],
      [1, 'pair'],
      [2, 'slow-claude'],
    ]);
    const stream = await anthropic.messages.create({ model, max_tokens: 50, messages: prompt, stream: true }, { signal });
    let finished = false;
    for await (const event of stream) {
      first();
      if (event.type === 'message_stop') finished = true;
    }
    return finished ? 'answer' : 'truncated';
  },
};

/** What an SDK threw, by kind: its own API errors (an HTTP error or an in-band error event) are protocol-native answers. */
function kindOf(error: unknown, aborted: boolean, hung: boolean): Outcome {
  if (hung) return 'hang';
  if (error instanceof OpenAI.APIUserAbortError || error instanceof Anthropic.APIUserAbortError) return aborted ? 'aborted' : 'other';
  if (error instanceof OpenAI.APIConnectionError || error instanceof Anthropic.APIConnectionError) return 'connection-error';
  if (error instanceof OpenAI.APIError || error instanceof Anthropic.APIError)
    return error.status === undefined ? 'in-band-error' : 'api-error';
  if (aborted && error instanceof Error && error.name === 'AbortError') return 'aborted';
  return 'other';
}

/** One request: some callers leave early (before the answer, or after its first event). */
async function oneRequest(clients: Clients, record: (name: string, outcome: Outcome, detail?: string) => void): Promise<void> {
  const name = pick<string>([
    [3, 'chat'],
    [4, 'chatStream'],
    [2, 'responses'],
    [3, 'responsesStream'],
    [2, 'messages'],
    [4, 'messagesStream'],
  ]);
  const leave = pick<'stay' | 'early' | 'after-first'>([
    [85, 'stay'],
    [7, 'early'],
    [8, 'after-first'],
  ]);
  const controller = new AbortController();
  let aborted = false;
  let hung = false;
  const abort = () => {
    aborted = true;
    controller.abort();
  };
  const deadline = setTimeout(() => {
    hung = true;
    controller.abort();
  }, REQUEST_DEADLINE_MS);
  const early = leave === 'early' ? setTimeout(abort, Math.floor(random() * 400)) : undefined;
  try {
    const end = await calls[name]!(clients, controller.signal, () => {
      if (leave === 'after-first' && !aborted) abort();
    });
    // An SDK stream ends quietly when its caller aborts it: that is the caller leaving, not a cut.
    record(name, hung ? 'hang' : aborted && end === 'truncated' ? 'aborted' : end);
  } catch (error) {
    const kind = kindOf(error, aborted, hung);
    record(name, kind, kind === 'other' || kind === 'connection-error' ? String((error as Error).stack ?? error) : undefined);
  } finally {
    clearTimeout(deadline);
    clearTimeout(early);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds (polling), at most `ms`; returns its last value for the assertion. */
async function settle<T>(read: () => T | Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < until) {
    await sleep(100);
    value = await read();
  }
  return value;
}

/** Open handles by type (`TCPSocketWrap`, `TCPServerWrap`, `Timeout`, …). */
function handles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

/**
 * Timers alive now, counted by wrapping the global timer functions: the gateway unrefs its timers,
 * and `getActiveResourcesInfo()` lists only those that hold the process open. A timeout lives until
 * it fires or is cleared, an interval until it is cleared.
 */
function trackTimers(): { live(): number; all(): number; restore(): void } {
  const {
    setTimeout: realSetTimeout,
    setInterval: realSetInterval,
    clearTimeout: realClearTimeout,
    clearInterval: realClearInterval,
  } = globalThis;
  const live = new Set<unknown>();
  const pooled = new Set<unknown>();
  const wrap = (real: typeof setTimeout, once: boolean) =>
    ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      const timer = real(
        (...given: unknown[]) => {
          if (once) {
            live.delete(timer);
            pooled.delete(timer);
          }
          callback(...given);
        },
        ms,
        ...args,
      );
      // undici's keep-alive checks on idle pooled connections live as long as those: counted apart.
      if (!/node_modules[\\/]undici[\\/]/.test(new Error().stack?.split('\n')[2] ?? '')) live.add(timer);
      else pooled.add(timer);
      return timer;
    }) as typeof setTimeout;
  const clear = (real: typeof clearTimeout) => (timer: Parameters<typeof clearTimeout>[0]) => {
    live.delete(timer);
    pooled.delete(timer);
    real(timer);
  };
  Object.assign(globalThis, {
    setTimeout: wrap(realSetTimeout, true),
    setInterval: wrap(realSetInterval as typeof setTimeout, false),
    clearTimeout: clear(realClearTimeout),
    clearInterval: clear(realClearInterval),
  });
  return {
    live: () => live.size,
    all: () => live.size + pooled.size,
    restore: () =>
      Object.assign(globalThis, {
        setTimeout: realSetTimeout,
        setInterval: realSetInterval,
        clearTimeout: realClearTimeout,
        clearInterval: realClearInterval,
      }),
  };
}

const PROCESS_EVENTS = ['SIGINT', 'SIGTERM', 'exit', 'beforeExit', 'uncaughtException', 'unhandledRejection', 'warning'] as const;
const processListeners = () => Object.fromEntries(PROCESS_EVENTS.map((event) => [event, process.listenerCount(event)]));

/** A full collection (vitest does not expose `gc`; V8 hands it out once the flag is set). */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
async function heapUsed(): Promise<number> {
  for (let round = 0; round < 3; round += 1) {
    collect();
    await sleep(50);
  }
  return process.memoryUsage().heapUsed;
}

/** The sum of a metric's samples in the Prometheus text. */
function metric(text: string, name: string): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name} `) || line.startsWith(`${name}{`)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

it('should leave no sockets, timers, slots, open requests or listeners behind after a minute of faulty mixed traffic', {
  timeout: 180_000,
}, async () => {
  const before = { handles: handles(), listeners: processListeners() };
  const timers = trackTimers();

  const [east, west, claude] = await Promise.all([startFaultUpstream(), startFaultUpstream(), startFaultUpstream()]);
  const [slowChat, slowClaude, hold] = await Promise.all([startTimedUpstream(), startTimedUpstream(), startTimedUpstream()]);
  const faults: FaultUpstream[] = [east, west, claude];
  const timed: TimedUpstream[] = [slowChat, slowClaude, hold];
  for (const upstream of faults) upstream.script(...faultMix());
  slowChat.script(...timedMix(chatFrames));
  slowClaude.script(...timedMix(messagesFrames));
  hold.script([{ headers: true }, { write: chatFrames.opening }, { hang: true }]);

  const options: GatewayOptions = {
    providers: {
      east: { type: 'openai', apiKey: 'sk-east', baseURL: `${east.url}/v1` },
      west: { type: 'openai', apiKey: 'sk-west', baseURL: `${west.url}/v1` },
      claude: { type: 'anthropic', apiKey: 'sk-ant-claude', baseURL: claude.url },
      slowChat: { type: 'openai', apiKey: 'sk-slow', baseURL: `${slowChat.url}/v1` },
      slowClaude: { type: 'anthropic', apiKey: 'sk-ant-slow', baseURL: slowClaude.url },
      hold: { type: 'openai', apiKey: 'sk-hold', baseURL: `${hold.url}/v1` },
    },
    models: [
      { id: 'pair', deployments: [{ provider: 'east' }, { provider: 'west' }], upstreamModel: 'gpt-pair', fallbacks: ['claude'] },
      { id: 'claude', provider: 'claude', upstreamModel: 'claude-x', fallbacks: ['pair'] },
      { id: 'slow-chat', provider: 'slowChat', upstreamModel: 'gpt-slow' },
      { id: 'slow-claude', provider: 'slowClaude', upstreamModel: 'claude-slow' },
      // Streams held open for the end's check of the concurrency slots.
      { id: 'held', provider: 'hold', timeouts: { firstTokenMs: 120_000 } },
    ],
    timeouts: { firstTokenMs: 1_000, idleMs: 600, failoverWindowMs: 200, keepAliveMs: 100 },
    retries: { attempts: 2, baseDelayMs: 10, maxDelayMs: 50, maxRetryAfterMs: 300 },
    cooldowns: { failures: 6, windowMs: 2_000, cooldownMs: 300, maxCooldownMs: 1_000 },
    limits: { perKey: { concurrency: CONCURRENCY, queueMs: 300 } },
    database: scratch.file('soak'),
    metrics: true,
  };
  const running = await startGateway(options);
  await running.gateway.ready();
  const metrics = () => running.gateway.metrics!.metrics();
  const outcomes = new Map<string, number>();
  const strange: string[] = [];
  const record = (name: string, outcome: Outcome, detail?: string) => {
    outcomes.set(`${name}:${outcome}`, (outcomes.get(`${name}:${outcome}`) ?? 0) + 1);
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    if (detail !== undefined && strange.length < 5) strange.push(`${name}: ${detail}`);
  };

  let closed = false;
  try {
    // Warm-up: the gateway's own lasting timers and pools exist, the code is compiled.
    const warm = clientsFor(running);
    for (let round = 0; round < 30; round += 1) await oneRequest(warm, () => undefined);
    await warm.agent.close();
    await settle(metrics, (text) => metric(text, 'switchyard_open_requests') === 0);
    const warmHeap = await heapUsed();
    const warmTimers = timers.live();

    // The soak: workers each on clients of their own, one request after another, until the time is up.
    const clients = Array.from({ length: 3 }, () => clientsFor(running));
    const stopAt = Date.now() + SOAK_MS;
    await Promise.all(
      Array.from({ length: WORKERS }, async (_, worker) => {
        while (Date.now() < stopAt) await oneRequest(clients[worker % clients.length]!, record);
      }),
    );
    await Promise.all(clients.map((client) => client.agent.close()));

    // Every request ended in an answer or an error its SDK recognised; none hung or was cut.
    const counted = Object.fromEntries(outcomes);
    console.info('soak outcomes', counted);
    expect(strange, 'requests that failed with a non-SDK error').toEqual([]);
    for (const bad of ['hang', 'truncated', 'connection-error', 'other'] as const) expect(counted[bad] ?? 0, bad).toBe(0);
    expect(counted.answer ?? 0).toBeGreaterThan(100);
    expect(counted['api-error'] ?? 0).toBeGreaterThan(0);
    expect(counted['in-band-error'] ?? 0).toBeGreaterThan(0);
    expect(counted.aborted ?? 0).toBeGreaterThan(0);

    // The gateway settled: nothing open, nothing queued, every ledger row written, no client connection left.
    const text = await settle(
      metrics,
      (value) => metric(value, 'switchyard_open_requests') === 0 && metric(value, 'switchyard_ledger_backlog_rows') === 0,
    );
    expect(metric(text, 'switchyard_open_requests')).toBe(0);
    expect(metric(text, 'switchyard_open_streams')).toBe(0);
    expect(metric(text, 'switchyard_limit_waiting_requests')).toBe(0);
    expect(metric(text, 'switchyard_ledger_backlog_rows')).toBe(0);
    expect(metric(text, 'switchyard_limit_rejections_total')).toBeGreaterThan(0);
    // Every upstream call has its ledger row (a request that never reached a provider — a client that
    // left while queued, a refusal other than a 429 — has none, so requests are not compared).
    const totals = await running.gateway.usage({ groupBy: 'model' });
    const attempts = totals.reduce((sum, row) => sum + Number(row.attempts), 0);
    expect(metric(text, 'switchyard_upstream_attempts_total')).toBeGreaterThan(100);
    expect(attempts).toBeGreaterThanOrEqual(metric(text, 'switchyard_upstream_attempts_total'));
    expect(totals.reduce((sum, row) => sum + Number(row.requests), 0)).toBeLessThanOrEqual(metric(text, 'switchyard_requests_total'));

    // No slot leaked: CONCURRENCY requests are admitted at once, and one more is refused.
    const probe = clientsFor(running);
    const holders = Array.from({ length: CONCURRENCY }, () => new AbortController());
    const held = await Promise.allSettled(
      holders.map((holder) =>
        probe.openai.chat.completions.create({ model: 'held', messages: prompt, stream: true }, { signal: holder.signal }),
      ),
    );
    expect(held.map((result) => result.status)).toEqual(holders.map(() => 'fulfilled'));
    const refused = await probe.openai.chat.completions.create({ model: 'held', messages: prompt, stream: true }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    for (const holder of holders) holder.abort();
    await hold.closedEarlyAtLeast(CONCURRENCY);
    await probe.agent.close();
    const after = await settle(metrics, (value) => metric(value, 'switchyard_open_requests') === 0);
    expect(metric(after, 'switchyard_open_requests')).toBe(0);

    // No timer piled up while the gateway runs: about the warm-up's count. Timers that exist
    // whatever the traffic (the ledger's flush, the key cache's writer, lease renewals) come and go;
    // 10 covers them, while a timer leaked per request would be hundreds after thousands. (undici's
    // checks on idle pooled connections are counted apart: they last as long as the connections.)
    const runningTimers = await settle(
      () => timers.live(),
      (count) => count <= warmTimers + 10,
      10_000,
    );
    expect(runningTimers).toBeLessThanOrEqual(warmTimers + 10);
    // Heap: what a minute of traffic left, after full collections; generous, as heaps are noisy.
    const growth = (await heapUsed()) - warmHeap;
    console.info('soak heap growth MB', (growth / 2 ** 20).toFixed(1), 'requests', metric(text, 'switchyard_requests_total'));
    expect(growth).toBeLessThan(50 * 2 ** 20);

    // Closing the gateway lets go of every upstream connection by itself (before the upstreams cut theirs).
    await running.close();
    await running.gateway.close();
    closed = true;
    const sockets = await settle(
      () => handles().TCPSocketWrap ?? 0,
      (count) => count <= (before.handles.TCPSocketWrap ?? 0),
    );
    expect(sockets).toBe(before.handles.TCPSocketWrap ?? 0);
    expect(faults.map((upstream) => upstream.openConnections())).toEqual([0, 0, 0]);
    // A closed gateway keeps no timer at all (the tolerance: undici's own timer wheel, stopping a second after its last use).
    const closedTimers = await settle(
      () => timers.all(),
      (count) => count <= 1,
      10_000,
    );
    console.info('timers', { warmTimers, runningTimers, closedTimers });
    expect(closedTimers).toBeLessThanOrEqual(1);
  } finally {
    if (!closed) {
      await running.close();
      await running.gateway.close();
    }
    await Promise.all([...faults, ...timed].map((upstream) => upstream.close()));
    timers.restore();
  }

  // Back where it started: the same sockets and servers, the same process listeners, timers within
  // the two that vitest's own bookkeeping may hold at any moment.
  // (A closed server's handle goes a moment after its callback: polled, not read once.)
  const end = await settle(
    handles,
    (counts) =>
      (counts.TCPSocketWrap ?? 0) === (before.handles.TCPSocketWrap ?? 0) &&
      (counts.TCPServerWrap ?? 0) === (before.handles.TCPServerWrap ?? 0) &&
      (counts.Timeout ?? 0) <= (before.handles.Timeout ?? 0) + 2,
    10_000,
  );
  console.info('handles before', before.handles, 'after', end);
  expect(end.TCPSocketWrap ?? 0).toBe(before.handles.TCPSocketWrap ?? 0);
  expect(end.TCPServerWrap ?? 0).toBe(before.handles.TCPServerWrap ?? 0);
  expect(end.Timeout ?? 0).toBeLessThanOrEqual((before.handles.Timeout ?? 0) + 2);
  expect(processListeners()).toEqual(before.listeners);
});
