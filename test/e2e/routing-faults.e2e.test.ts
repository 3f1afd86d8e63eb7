// Each upstream fault as the official clients see it through the gateway, with how many upstream
// attempts were made and on which deployment. Each deployment is its own loopback upstream; the
// SDKs' own retries are off (maxRetries: 0) so every retry counted is the gateway's.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayOptions } from '../../src/gateway/options.js';
import type { UpstreamAttempt } from '../../src/canonical/index.js';
import { refusedUrl, startFaultUpstream, type Fault, type FaultUpstream } from '../helpers/fault-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

let east: FaultUpstream;
let west: FaultUpstream;
let claude: FaultUpstream;
let large: FaultUpstream;
let running: RunningGateway;
let openai: OpenAI;
let anthropic: Anthropic;
const attempts: UpstreamAttempt[] = [];

/** Small delays: the test checks what happens, not how long a production backoff is. */
const options = (refused: string): GatewayOptions => ({
  providers: {
    east: { type: 'openai', apiKey: 'sk-east', baseURL: `${east.url}/v1` },
    west: { type: 'openai', apiKey: 'sk-west', baseURL: `${west.url}/v1` },
    gone: { type: 'openai', apiKey: 'sk-gone', baseURL: `${refused}/v1` },
    claude: { type: 'anthropic', apiKey: 'sk-ant-claude', baseURL: claude.url },
    large: { type: 'openai', apiKey: 'sk-large', baseURL: `${large.url}/v1` },
  },
  retries: { attempts: 2, baseDelayMs: 20, maxDelayMs: 50, maxRetryAfterMs: 1_000 },
  cooldowns: { failures: 100, windowMs: 60_000, cooldownMs: 60_000 },
  models: [
    // East is picked first whenever it is in service (its weight makes the other all but never drawn first).
    {
      id: 'pair',
      deployments: [
        { provider: 'east', weight: 1_000_000 },
        { provider: 'west', weight: 1 },
      ],
      upstreamModel: 'gpt-pair',
    },
    { id: 'solo', provider: 'east', upstreamModel: 'gpt-solo' },
    { id: 'solo-west', provider: 'west', upstreamModel: 'gpt-solo-west' },
    { id: 'unreachable-first', deployments: [{ provider: 'gone', weight: 1_000_000 }, { provider: 'west' }], upstreamModel: 'gpt-u' },
    { id: 'claude', provider: 'claude', upstreamModel: 'claude-x' },
    { id: 'chain', provider: 'east', upstreamModel: 'gpt-chain', fallbacks: ['claude-backup'] },
    { id: 'claude-backup', provider: 'claude', upstreamModel: 'claude-backup' },
    { id: 'small', provider: 'east', upstreamModel: 'gpt-small', contextFallback: 'big' },
    { id: 'big', provider: 'large', upstreamModel: 'gpt-big' },
  ],
});

beforeAll(async () => {
  [east, west, claude, large] = await Promise.all([startFaultUpstream(), startFaultUpstream(), startFaultUpstream(), startFaultUpstream()]);
  running = await startGateway(options(await refusedUrl()));
  openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
});
afterAll(async () => {
  await running.close();
  await running.gateway.close();
  await Promise.all([east, west, claude, large].map((upstream) => upstream.close()));
});

let unsubscribe: (() => void) | undefined;
beforeEach(() => {
  for (const upstream of [east, west, claude, large]) {
    upstream.calls.length = 0;
    upstream.script();
  }
  attempts.length = 0;
  unsubscribe?.();
  unsubscribe = undefined;
});

/** Subscribes to the routing stage's attempt events (what metrics read). */
function watchAttempts(): void {
  unsubscribe = running.gateway.routing.onAttempt((event) => attempts.push(event));
}

const chat = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'Hi' }] });
const chatStream = (model: string) => ({ ...chat(model), stream: true as const });
type ApiError = Error & { status?: number; headers?: Headers; code?: string | null };
const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => expect.unreachable('the call should fail'),
    (error: unknown) => error as ApiError,
  );
const script = (upstream: FaultUpstream, ...faults: Fault[]) => upstream.script(...faults);
const status = (code: number, retryAfter?: string): Fault => ({
  kind: 'status',
  status: code,
  ...(retryAfter === undefined ? {} : { retryAfter }),
});
const ok: Fault = { kind: 'ok' };

describe('a burst of 5xx from the only deployment', () => {
  it('should retry it after a backoff and answer the openai client 200', async () => {
    watchAttempts();
    script(east, status(503), status(502), ok);
    const completion = await openai.chat.completions.create(chat('solo'));
    expect(completion.choices[0]?.message.content).toBe('Hello from the upstream');
    expect(east.calls.map((call) => call.model)).toEqual(['gpt-solo', 'gpt-solo', 'gpt-solo']);
    expect(attempts.map((event) => [event.attempt, event.deployment, event.error?.status])).toEqual([
      [1, 'east/gpt-solo', 503],
      [2, 'east/gpt-solo', 502],
      [3, 'east/gpt-solo', undefined],
    ]);
    // Two backoffs of at least 10 ms each (half of 20, then of 40).
    const [first, , third] = east.calls;
    expect(third!.at - first!.at).toBeGreaterThanOrEqual(20);
  });

  it('should give up after the configured attempts with the last error, in the caller protocol', async () => {
    script(east, status(500));
    const failure = await failureOf(openai.chat.completions.create(chat('solo')));
    expect(failure.status).toBe(500);
    expect(east.calls).toHaveLength(3);
  });

  it('should retry for the Anthropic client too, the upstream speaking Messages', async () => {
    script(claude, status(529), ok);
    const message = await anthropic.messages.create({ model: 'claude', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from the upstream' }]);
    expect(claude.calls).toHaveLength(2);
  });

  it('should not retry a 400: the request itself is wrong', async () => {
    script(east, status(400));
    const failure = await failureOf(openai.chat.completions.create(chat('solo')));
    expect(failure.status).toBe(400);
    expect(east.calls).toHaveLength(1);
  });
});

describe('a failing deployment beside a healthy one', () => {
  it('should move to the other deployment at once, without a backoff', async () => {
    watchAttempts();
    script(east, status(503));
    const completion = await openai.chat.completions.create(chat('pair'));
    expect(completion.choices[0]?.message.content).toBe('Hello from the upstream');
    expect(east.calls).toHaveLength(1);
    expect(west.calls.map((call) => call.model)).toEqual(['gpt-pair']);
    expect(attempts.map((event) => event.deployment)).toEqual(['east/gpt-pair', 'west/gpt-pair']);
  });

  it('should move to the other deployment when the first refuses connections', async () => {
    watchAttempts();
    const completion = await openai.chat.completions.create(chat('unreachable-first'));
    expect(completion.choices[0]?.message.content).toBe('Hello from the upstream');
    expect(attempts.map((event) => [event.deployment, event.error?.code])).toEqual([
      ['gone/gpt-u', 'UPSTREAM_UNREACHABLE'],
      ['west/gpt-u', undefined],
    ]);
    expect(west.calls).toHaveLength(1);
  });

  it('should retry a connection reset before the headers', async () => {
    script(east, { kind: 'reset' }, ok);
    const completion = await openai.chat.completions.create(chat('solo'));
    expect(completion.choices[0]?.message.content).toBe('Hello from the upstream');
    expect(east.calls).toHaveLength(2);
  });
});

describe('429 with retry-after', () => {
  it('should wait a short retry-after and retry the same deployment', async () => {
    script(east, status(429, '0.3'), ok);
    const started = Date.now();
    const completion = await openai.chat.completions.create(chat('solo'));
    expect(completion.choices[0]?.message.content).toBe('Hello from the upstream');
    expect(east.calls).toHaveLength(2);
    expect(east.calls[1]!.at - east.calls[0]!.at).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('should answer a long retry-after from the only deployment with the 429 and its retry-after, at once', async () => {
    script(west, status(429, '30'));
    const started = Date.now();
    const failure = await failureOf(openai.chat.completions.create(chat('solo-west')));
    expect(failure.status).toBe(429);
    expect(Number(failure.headers?.get('retry-after'))).toBeGreaterThanOrEqual(29);
    expect(west.calls).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('a stream', () => {
  it('should be retried when an error frame arrives inside the 200 stream before any output', async () => {
    script(east, { kind: 'error-frame' }, ok);
    const stream = await openai.chat.completions.create(chatStream('solo'));
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Hello from the upstream');
    expect(east.calls).toHaveLength(2);
  });

  it('should be retried for the Anthropic client when its error event comes before any output', async () => {
    script(claude, { kind: 'error-frame' }, ok);
    const stream = anthropic.messages.stream({ model: 'claude', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] });
    const message = await stream.finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from the upstream' }]);
    expect(claude.calls).toHaveLength(2);
  });

  it('should never be retried once output reached the client: a reset mid-stream is an in-band error', async () => {
    script(east, { kind: 'reset-after-output' }, ok);
    const stream = await openai.chat.completions.create(chatStream('solo'));
    let text = '';
    const failure = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().then(
      () => undefined,
      (error: unknown) => error as ApiError,
    );
    expect(text).toBe('Partial answer');
    expect(failure).toBeDefined();
    expect(east.calls).toHaveLength(1);
  });
});

describe('fallbacks', () => {
  it('should answer from the fallback model, across protocols, once the model failed every attempt', async () => {
    watchAttempts();
    script(east, status(503));
    const completion = await openai.chat.completions.create(chat('chain'));
    expect(completion.choices[0]?.message.content).toBe('Hello from the upstream');
    expect(east.calls).toHaveLength(3);
    expect(claude.calls.map((call) => call.model)).toEqual(['claude-backup']);
    expect(attempts.map((event) => event.model)).toEqual(['chain', 'chain', 'chain', 'claude-backup']);
  });

  it('should go to the context fallback, and only it, when the prompt does not fit', async () => {
    watchAttempts();
    script(east, { kind: 'context-overflow' });
    const completion = await openai.chat.completions.create(chat('small'));
    expect(completion.choices[0]?.message.content).toBe('Hello from the upstream');
    expect(east.calls).toHaveLength(1);
    expect(large.calls.map((call) => call.model)).toEqual(['gpt-big']);
    expect(attempts.map((event) => [event.model, event.error?.code])).toEqual([
      ['small', 'CONTEXT_LENGTH_EXCEEDED'],
      ['big', undefined],
    ]);
  });

  it('should answer the overflow itself (400) when the larger model has no room either', async () => {
    script(east, { kind: 'context-overflow' });
    script(large, { kind: 'context-overflow' });
    const failure = await failureOf(openai.chat.completions.create(chat('small')));
    expect(failure.status).toBe(400);
    expect(failure.code).toBe('context_length_exceeded');
    expect(large.calls).toHaveLength(1);
  });
});

describe('the client leaving', () => {
  it('should make no further attempt once the client left during a backoff', async () => {
    script(east, status(429, '0.8'), ok);
    const controller = new AbortController();
    const call = openai.chat.completions.create(chat('solo'), { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await expect(call).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(east.calls).toHaveLength(1);
  });
});
