import { Writable } from 'node:stream';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createRequestLogStage, requestLineOf, requestLineText } from '../../src/observability/request-log-stage.js';
import { maskSecrets } from '../../src/observability/prompt-summary.js';
import type { RequestRecord } from '../../src/usage/record-stage.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

/** A pino logger writing into `lines`, as a host app's would write to its destination. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, destination), lines };
}

const record: RequestRecord = {
  requestId: 'req_1',
  caller: { keyId: 'key_public_1', keyName: 'ci' },
  protocol: 'messages',
  model: 'claude-x',
  provider: 'anthropic',
  upstreamModel: 'claude-x-2026',
  stream: true,
  status: 200,
  errorCode: undefined,
  usage: { inputTokens: 1000, outputTokens: 200, cachedInputTokens: 400, reasoningTokens: 50 },
  upstream: undefined,
  startedAt: 1_700_000_000_000,
  durationMs: 812,
  attempts: 2,
  firstOutputMs: 140,
  userAgent: 'Anthropic/JS 0.60.0',
  cut: undefined,
  deployment: 'anthropic-east/claude-x-2026',
  adaptations: ['reasoning'],
  overheadMs: 1.25,
  request: {
    model: 'claude-x',
    stream: true,
    system: [{ type: 'text', text: 'You are terse.' }],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'my key is sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123 please' }] }],
  },
};

describe('requestLineOf', () => {
  it('should carry ids, route, outcome, tokens, cost, timings, adaptations and the user agent', () => {
    const line = requestLineOf(record, () => ({ nanoUsd: 2_500_000, priceVersion: 'config:x' }));
    expect(line).toEqual({
      requestId: 'req_1',
      keyId: 'key_public_1',
      protocol: 'messages',
      model: 'claude-x',
      deployment: 'anthropic-east/claude-x-2026',
      stream: true,
      attempts: 2,
      status: 200,
      tokens: { input: 1000, output: 200, cached: 400, reasoning: 50 },
      costUsd: 0.0025,
      durationMs: 812,
      firstTokenMs: 140,
      overheadMs: 1.25,
      adaptations: ['reasoning'],
      userAgent: 'Anthropic/JS 0.60.0',
    });
  });

  it('should leave out what is unknown rather than write 0: no cost without a price, no counts the answer did not report', () => {
    const line = requestLineOf({ ...record, usage: { outputTokens: 3 }, deployment: undefined }, () => undefined);
    expect(line.tokens).toEqual({ output: 3 });
    expect(line).not.toHaveProperty('costUsd');
    expect(line.provider).toBe('anthropic');
  });

  it('should show no prompt unless asked, and only its sizes when asked for lengths', () => {
    expect(JSON.stringify(requestLineOf(record))).not.toContain('terse');
    const line = requestLineOf(record, undefined, 'lengths');
    expect(line.prompt).toEqual([
      { role: 'system', chars: 14 },
      { role: 'user', chars: 60 },
    ]);
    expect(JSON.stringify(line)).not.toContain('sk-ant');
  });

  it('should mask key-like strings when the prompt text is asked for', () => {
    const line = requestLineOf(record, undefined, 'text');
    expect(line.prompt).toEqual([
      { role: 'system', chars: 14, text: 'You are terse.' },
      { role: 'user', chars: 60, text: 'my key is [REDACTED] please' },
    ]);
  });
});

describe('requestLineText', () => {
  const priced = () => ({ nanoUsd: 1_234, priceVersion: 'config:x' });
  // Records that take every branch: unknown fields, odd characters, a token caller, odd numbers.
  const variants: Array<[string, RequestRecord]> = [
    ['full', record],
    [
      'refused before a model',
      {
        ...record,
        caller: undefined,
        model: undefined,
        deployment: undefined,
        provider: undefined,
        usage: undefined,
        status: 401,
        errorCode: 'INVALID_API_KEY',
        attempts: 0,
        firstOutputMs: undefined,
        overheadMs: undefined,
        adaptations: undefined,
        userAgent: undefined,
      },
    ],
    ['provider only, counts missing', { ...record, deployment: undefined, usage: { inputTokens: 5 }, adaptations: [] }],
    ['no counts at all', { ...record, usage: {} }],
    ['a browser token', { ...record, caller: { keyId: 'key_2', keyName: 'web', token: { id: 'tok_9' } } as RequestRecord['caller'] }],
    [
      'text that needs escaping',
      {
        ...record,
        requestId: 'req_"quoted"\\back',
        model: 'modèle/ü',
        userAgent: 'agent\n\u0001\u2028 \ud800',
        adaptations: ['tools."x"', 'reasoning'],
      },
    ],
    ['fractions and oddities', { ...record, durationMs: 0.1 + 0.2, overheadMs: 1e-7, firstOutputMs: Number.NaN }],
  ];

  it.each(variants)('should be the JSON of requestLineOf, field for field and in order (%s)', (_name, variant) => {
    for (const prompts of [undefined, 'lengths', 'text'] as const) {
      for (const price of [undefined, priced]) {
        const text = `{${requestLineText(variant, price, prompts)}}`;
        expect(text).toBe(JSON.stringify(requestLineOf(variant, price, prompts)));
      }
    }
  });

  it('should write a name it has quoted before the same way, for more names than it keeps quoted', () => {
    // Names are quoted once and kept (up to 1,000): past that the cache starts over.
    for (let round = 0; round < 2; round += 1) {
      for (let index = 0; index < 1_100; index += 1) {
        const variant = {
          ...record,
          model: index % 100 === 7 ? `model "${index}"\n` : `model-${index}`,
          deployment: `deployment/${index % 3}`,
        };
        expect(`{${requestLineText(variant)}}`).toBe(JSON.stringify(requestLineOf(variant)));
      }
    }
  });
});

describe('maskSecrets', () => {
  it('should mask provider keys, bearer tokens and JWTs, and keep ordinary words', () => {
    expect(maskSecrets('Authorization: Bearer abc.def-123')).toBe('Authorization: [REDACTED]');
    expect(maskSecrets('use sk-proj-AAAAbbbbCCCCdddd1234 now')).toBe('use [REDACTED] now');
    expect(maskSecrets('token eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.SflKxwRJSMeKKF2QT4')).toBe('token [REDACTED]');
    expect(maskSecrets('AKIAIOSFODNN7EXAMPLE and ghp_0123456789abcdefghijklmnopqrstuvwxyz')).toBe('[REDACTED] and [REDACTED]');
    expect(maskSecrets('internationalization is a long word')).toBe('internationalization is a long word');
  });
});

describe('createRequestLogStage', () => {
  it('should write one info line per entry, msg "request"', () => {
    const { logger, lines } = capturedLogger();
    const stage = createRequestLogStage({ logger });
    stage.record(record);
    // pino writes synchronously to a Writable it was given
    expect(lines).toEqual([expect.objectContaining({ level: 30, msg: 'request', requestId: 'req_1', status: 200 })]);
  });
});

describe('the request log through the gateway', () => {
  let running: RunningGateway | undefined;
  afterEach(async () => {
    await running?.close();
    await running?.gateway.close();
    running = undefined;
  });

  const waitFor = async (lines: unknown[], count: number) => {
    for (let attempt = 0; attempt < 100 && lines.length < count; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
  };

  it('should log each SDK request once, with tokens and cost, and neither the key nor the prompt', async () => {
    const { logger, lines } = capturedLogger();
    running = await startGateway({ requestLog: logger, models: [{ id: 'mock', provider: 'mock', price: { input: 1, output: 2 } }] });
    const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
    await openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'the secret prompt' }] });
    const stream = await openai.chat.completions.create({
      model: 'mock',
      stream: true,
      messages: [{ role: 'user', content: 'the secret prompt' }],
    });
    for await (const chunk of stream) void chunk;
    await anthropic.messages.create({ model: 'mock', max_tokens: 50, messages: [{ role: 'user', content: 'the secret prompt' }] });
    await openai.chat.completions.create({ model: 'nope', messages: [{ role: 'user', content: 'x' }] }).catch(() => undefined);
    await waitFor(lines, 4);

    expect(lines).toHaveLength(4);
    const [plain, streamed, messages, unknown] = lines;
    expect(plain).toMatchObject({
      msg: 'request',
      requestId: expect.stringMatching(/^req_/),
      protocol: 'chat',
      model: 'mock',
      deployment: 'mock/mock',
      stream: false,
      attempts: 1,
      status: 200,
      tokens: { input: expect.any(Number), output: expect.any(Number) },
      costUsd: expect.any(Number),
      durationMs: expect.any(Number),
      overheadMs: expect.any(Number),
      userAgent: expect.stringMatching(/^OpenAI\/JS/),
    });
    expect(streamed).toMatchObject({ protocol: 'chat', stream: true, status: 200, firstTokenMs: expect.any(Number) });
    expect(messages).toMatchObject({ protocol: 'messages', status: 200, userAgent: expect.stringMatching(/^Anthropic\/JS/) });
    expect(unknown).toMatchObject({ protocol: 'chat', status: 404, errorCode: 'UNKNOWN_MODEL', attempts: 0 });
    expect(unknown).not.toHaveProperty('costUsd');
    const text = JSON.stringify(lines);
    expect(text).not.toContain(TEST_KEY);
    expect(text).not.toContain('secret prompt');
  });

  it("should write JSON lines to a stream given as its destination, in the format of the gateway's other lines", async () => {
    const chunks: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString());
        done();
      },
    });
    running = await startGateway({ requestLog: { destination, prompts: 'lengths' } });
    const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const answer = await openai.chat.completions
      .create({ model: 'mock', messages: [{ role: 'user', content: 'the secret prompt' }] })
      .withResponse();
    for (let attempt = 0; attempt < 100 && chunks.length === 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(chunks.every((chunk) => chunk.endsWith('\n'))).toBe(true);
    const lines = chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'info',
        requestId: answer.response.headers.get('x-request-id'),
        protocol: 'chat',
        status: 200,
        prompt: [{ role: 'user', chars: 17 }],
        msg: 'request',
      }),
    ]);
    expect(Object.keys(lines[0]!).slice(0, 3)).toEqual(['level', 'time', 'requestId']);
    expect(Object.keys(lines[0]!).at(-1)).toBe('msg');
    expect(new Date(lines[0]!.time as string).toISOString()).toBe(lines[0]!.time);
    expect(chunks.join('')).not.toContain('secret prompt');
  });

  it('should write nothing by default', async () => {
    const written: string[] = [];
    const original = process.stdout.write.bind(process.stdout);
    running = await startGateway({});
    process.stdout.write = ((chunk: string) => (written.push(String(chunk)), true)) as typeof process.stdout.write;
    try {
      const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
      await openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'hi' }] });
    } finally {
      process.stdout.write = original;
    }
    expect(written.filter((text) => text.includes('"msg":"request"'))).toEqual([]);
  });
});
