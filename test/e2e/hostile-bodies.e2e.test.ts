// A seeded fuzz over every endpoint, with what an attacker sends: JSON nested thousands of levels
// deep, megabyte strings where ids and names go, wrong types and unknown fields — against the mock
// and a real provider on loopback. No 5xx, always the caller's error shape, and the event loop
// never stalls (one bad request must not hold up everyone else's).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatibleProvider } from '../../src/providers/openai-compatible/index.js';
import { jsonFixture, sseFixture } from '../helpers/fixtures.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

let upstream: MockUpstream;
let running: RunningGateway;

beforeAll(async () => {
  upstream = await startMockUpstream();
  // Whatever reaches the provider gets a well-formed answer: any 5xx is the gateway's own.
  upstream.reply((request) =>
    (request.body as { stream?: unknown } | undefined)?.stream === true
      ? { sse: sseFixture('chat-completions', 'upstream-text') }
      : { json: jsonFixture('chat-completions', 'upstream-response-tool-call') },
  );
  running = await startGateway({
    bodyLimit: 8 * 1024 * 1024,
    providers: {
      chat: createOpenAICompatibleProvider({ id: 'chat', baseURL: `${upstream.url}/v1`, apiKey: 'sk-upstream-0123456789abcdef' }),
    },
    models: [
      { id: 'mock', provider: 'mock' },
      { id: 'via-chat', provider: 'chat', upstreamModel: 'm' },
    ],
  });
});
afterAll(async () => {
  await running.close();
  await running.gateway.close();
  await upstream.close();
});

/**
 * Stands for `{"a":[{"a":[…]}]}`, objects and arrays `depth` levels deep, in the body's text: a
 * value that deep would overflow the test's own JSON.stringify.
 */
const deep = (depth: number): string => `__deep_${depth}__`;
const nestedText = (depth: number) => `${'{"a":['.repeat(Math.ceil(depth / 2))}0${']}'.repeat(Math.ceil(depth / 2))}`;
const bodyText = (value: unknown) => JSON.stringify(value).replace(/"__deep_(\d+)__"/g, (_, depth: string) => nestedText(Number(depth)));

/** What goes where an attacker puts it: huge, deep, or of the wrong type. */
const hostile = fc.oneof(
  fc.integer({ min: 150, max: 6_000 }).map(deep),
  fc.integer({ min: 100_000, max: 2_000_000 }).map((length) => 'x'.repeat(length)),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.jsonValue({ maxDepth: 4 }),
  fc.constantFrom(null, -1, 1e308, '', [], {}, true),
);

const mostly = <T>(good: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 4 }, { arbitrary: hostile, weight: 1 });
const model = mostly(fc.constantFrom('mock', 'via-chat'));
const text = fc.oneof({ arbitrary: fc.string({ maxLength: 40 }), weight: 3 }, { arbitrary: hostile, weight: 1 });
const sometimes = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined, freq: 3 });

const tool = fc.record({ type: fc.constant('function'), function: fc.record({ name: text, parameters: sometimes(hostile) }) });
const chatBody = fc.record({
  model,
  messages: mostly(
    fc.array(fc.record({ role: fc.constantFrom('user', 'system', 'assistant'), content: text }), { minLength: 1, maxLength: 3 }),
  ),
  stream: sometimes(fc.boolean()),
  tools: sometimes(mostly(fc.array(tool, { maxLength: 2 }))),
  n: sometimes(mostly(fc.integer({ min: -2, max: 200 }))),
  unknown_field: sometimes(hostile),
});
const responsesBody = fc.record({
  model,
  input: fc.oneof(text, fc.array(fc.record({ role: fc.constantFrom('user', 'developer'), content: text }), { maxLength: 3 })),
  stream: sometimes(fc.boolean()),
  tools: sometimes(
    mostly(fc.array(fc.record({ type: fc.constant('function'), name: text, parameters: sometimes(hostile) }), { maxLength: 2 })),
  ),
  metadata: sometimes(hostile),
});
const messagesBody = fc.record({
  model,
  max_tokens: mostly(fc.integer({ min: 1, max: 100 })),
  messages: mostly(fc.array(fc.record({ role: fc.constantFrom('user', 'assistant'), content: text }), { minLength: 1, maxLength: 3 })),
  stream: sometimes(fc.boolean()),
  tools: sometimes(mostly(fc.array(fc.record({ name: text, input_schema: hostile }), { maxLength: 2 }))),
  system: sometimes(text),
});

const endpoints = [
  { path: '/v1/chat/completions', body: chatBody, anthropic: false },
  { path: '/v1/responses', body: responsesBody, anthropic: false },
  { path: '/v1/messages', body: messagesBody, anthropic: true },
  { path: '/v1/messages/count_tokens', body: messagesBody, anthropic: true },
  { path: '/v1/responses/input_tokens', body: responsesBody, anthropic: false },
];

/** Drops undefined fields: what JSON.stringify would do, kept explicit. */
const plain = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));

describe('hostile bodies on every endpoint', () => {
  for (const [index, endpoint] of endpoints.entries()) {
    it(`should answer ${endpoint.path} with a success or the protocol's 4xx, never a 5xx or a stalled loop`, async () => {
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      await fc.assert(
        fc.asyncProperty(endpoint.body, async (fields) => {
          const response = await fetch(`${running.root}${endpoint.path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
            body: bodyText(plain(fields)),
          });
          const raw = await response.text();
          expect(response.status, raw.slice(0, 300)).toBeLessThan(500);
          expect(response.headers.get('x-request-id')).toMatch(/^req_/);
          if (response.status >= 400) {
            const error = JSON.parse(raw) as { type?: string; error?: { message?: unknown } };
            expect(typeof error.error?.message).toBe('string');
            // An echo of what the caller sent stays short, however long that was.
            expect(raw.length).toBeLessThan(4_000);
            if (endpoint.anthropic) expect(error.type).toBe('error');
          }
        }),
        { numRuns: 80, seed: 20261127 + index },
      );
      delay.disable();
      expect(delay.max / 1e6).toBeLessThan(1_500);
    }, 120_000);
  }
});
