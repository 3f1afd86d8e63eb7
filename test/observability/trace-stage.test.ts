import Anthropic from '@anthropic-ai/sdk';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createTraceStage, spanAttributesOf } from '../../src/observability/trace-stage.js';
import { resolveObservability } from '../../src/observability/resolve-observability.js';
import type { RequestRecord } from '../../src/usage/record-stage.js';
import { createRecordingTracer } from '../helpers/recording-tracer.js';
import { requestRecord } from '../helpers/request-record.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

let running: RunningGateway | undefined;
afterEach(async () => {
  await running?.close();
  await running?.gateway.close();
  running = undefined;
});

describe('createTraceStage through the gateway', () => {
  it('should make one span per request with the GenAI attributes, from arrival to the end of the answer', async () => {
    const tracer = createRecordingTracer();
    running = await startGateway({ tracing: { tracer }, models: [{ id: 'small', provider: 'mock', upstreamModel: 'mock-small' }] });
    const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
    const before = Date.now();
    await openai.chat.completions.create({
      model: 'small',
      max_tokens: 100,
      temperature: 0.2,
      top_p: 0.9,
      messages: [{ role: 'user', content: 'Hello' }],
    });
    const stream = await anthropic.messages.create({
      model: 'small',
      max_tokens: 64,
      stream: true,
      messages: [{ role: 'user', content: 'Hello' }],
    });
    for await (const event of stream) void event;
    await openai.chat.completions.create({ model: 'missing', messages: [{ role: 'user', content: 'Hello' }] }).catch(() => undefined);

    // One server span per request; the router's upstream attempts are its children.
    const requests = tracer.spans.filter((span) => span.kind === SpanKind.SERVER);
    expect(requests).toHaveLength(3);
    const [chat, messages, missing] = requests;
    const attempts = tracer.spans.filter((span) => span.kind !== SpanKind.SERVER);
    expect(attempts.map((span) => span.parentSpanId)).toEqual([chat!.spanId, messages!.spanId]);
    expect(chat).toMatchObject({
      name: 'chat small',
      kind: SpanKind.SERVER,
      ended: true,
      status: undefined,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'mock',
        'gen_ai.request.model': 'small',
        'gen_ai.request.max_tokens': 100,
        'gen_ai.request.temperature': 0.2,
        'gen_ai.request.top_p': 0.9,
        'gen_ai.usage.input_tokens': expect.any(Number),
        'gen_ai.usage.output_tokens': expect.any(Number),
        'http.response.status_code': 200,
        'switchyard.protocol': 'chat',
        'switchyard.stream': false,
        'switchyard.deployment': 'mock/mock-small',
        'switchyard.upstream_model': 'mock-small',
        'switchyard.attempts': 1,
        'switchyard.request_id': expect.stringMatching(/^req_/),
      },
    });
    expect(chat!.startTime as number).toBeGreaterThanOrEqual(before);
    expect(chat!.endTime as number).toBeGreaterThanOrEqual(chat!.startTime as number);
    expect(messages).toMatchObject({
      name: 'chat small',
      attributes: { 'switchyard.protocol': 'messages', 'switchyard.stream': true, 'switchyard.first_token_ms': expect.any(Number) },
    });
    expect(missing).toMatchObject({ name: 'chat', attributes: { 'error.type': 'UNKNOWN_MODEL', 'http.response.status_code': 404 } });
    // A caller's mistake is not the gateway's error.
    expect(missing!.status).toBeUndefined();
    expect(JSON.stringify(tracer.spans)).not.toContain(TEST_KEY);
  });

  it('should mark an upstream failure as an error span', async () => {
    const tracer = createRecordingTracer();
    const failing = {
      id: 'failing',
      async generate(): Promise<never> {
        const { GatewayError } = await import('../../src/canonical/index.js');
        throw new GatewayError({ kind: 'upstream', code: 'UPSTREAM_ERROR', status: 502, message: 'The provider failed.' });
      },
      async *stream(): AsyncIterable<never> {
        throw new Error('not used');
      },
    };
    running = await startGateway({ tracing: { tracer }, providers: { failing }, models: [{ id: 'broken', provider: 'failing' }] });
    const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    await openai.chat.completions.create({ model: 'broken', messages: [{ role: 'user', content: 'Hello' }] }).catch(() => undefined);
    const requests = tracer.spans.filter((span) => span.kind === SpanKind.SERVER);
    expect(requests).toHaveLength(1);
    // Each attempt (the first and the router's retries) is a child span of the request's.
    expect(tracer.spans.length).toBeGreaterThan(1);
    expect(tracer.spans.filter((span) => span.kind !== SpanKind.SERVER).every((span) => span.parentSpanId === requests[0]!.spanId)).toBe(
      true,
    );
    expect(requests[0]).toMatchObject({
      status: { code: SpanStatusCode.ERROR, message: 'UPSTREAM_ERROR' },
      attributes: { 'error.type': 'UPSTREAM_ERROR', 'http.response.status_code': 502 },
    });
  });

  it('should use the registered tracer provider with tracing: true, and make no spans by default', async () => {
    const tracer = createRecordingTracer();
    const names: string[] = [];
    trace.setGlobalTracerProvider({ getTracer: (name: string) => (names.push(name), tracer) });
    try {
      running = await startGateway({});
      const off = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
      await off.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hello' }] });
      expect(tracer.spans).toEqual([]);
      await running.close();
      await running.gateway.close();

      running = await startGateway({ tracing: true });
      const on = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
      await on.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hello' }] });
      expect(names).toContain('switchyard-gateway');
      expect(tracer.spans.filter((span) => span.kind === SpanKind.SERVER).map((span) => span.name)).toEqual(['chat mock']);
    } finally {
      trace.disable();
    }
  });
});

const finished: RequestRecord = requestRecord({
  upstreamModel: 'gpt-5',
  durationMs: 900,
  attempts: 2,
  deployment: 'openai-west/gpt-5',
});

describe('spanAttributesOf', () => {
  it('should name every setting, count and id the record has, under its convention name', () => {
    const record = requestRecord({
      caller: { keyId: 'key_1' },
      protocol: 'messages',
      model: 'claude',
      provider: 'anthropic',
      upstreamModel: 'claude-x',
      deployment: 'anthropic/claude-x',
      stream: true,
      status: 200,
      errorCode: 'STREAM_CUT',
      usage: { inputTokens: 30, outputTokens: 7, cachedInputTokens: 10, cacheWriteTokens: 5 },
      upstream: { status: 200, requestId: 'msg_up' },
      attempts: 2,
      firstOutputMs: 12,
      overheadMs: 0.4,
      request: {
        model: 'claude',
        messages: [],
        stream: true,
        maxOutputTokens: 64,
        stopSequences: ['END'],
        sampling: { temperature: 0.5, topP: 0.8, topK: 40, seed: 7, presencePenalty: 0.1, frequencyPenalty: 0.2 },
      },
    });
    expect(spanAttributesOf(record)).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude',
      'gen_ai.request.max_tokens': 64,
      'gen_ai.request.temperature': 0.5,
      'gen_ai.request.top_p': 0.8,
      'gen_ai.request.top_k': 40,
      'gen_ai.request.seed': 7,
      'gen_ai.request.presence_penalty': 0.1,
      'gen_ai.request.frequency_penalty': 0.2,
      'gen_ai.request.stop_sequences': ['END'],
      'gen_ai.usage.input_tokens': 30,
      'gen_ai.usage.output_tokens': 7,
      'gen_ai.usage.cache_read.input_tokens': 10,
      'gen_ai.usage.cache_creation.input_tokens': 5,
      'gen_ai.response.id': 'msg_up',
      'error.type': 'STREAM_CUT',
      'http.response.status_code': 200,
      'switchyard.request_id': 'req_a',
      'switchyard.protocol': 'messages',
      'switchyard.stream': true,
      'switchyard.key_id': 'key_1',
      'switchyard.deployment': 'anthropic/claude-x',
      'switchyard.upstream_model': 'claude-x',
      'switchyard.attempts': 2,
      'switchyard.first_token_ms': 12,
      'switchyard.overhead_ms': 0.4,
    });
  });

  it('should leave out what the record does not know, not name it with no value', () => {
    const attributes = spanAttributesOf(
      requestRecord({
        model: undefined,
        provider: undefined,
        upstreamModel: undefined,
        status: 401,
        errorCode: 'INVALID_API_KEY',
        attempts: 0,
      }),
    );
    // Exact keys: an attribute set to undefined would still be a key here.
    expect(Object.keys(attributes).sort()).toEqual(
      [
        'error.type',
        'gen_ai.operation.name',
        'http.response.status_code',
        'switchyard.attempts',
        'switchyard.protocol',
        'switchyard.request_id',
        'switchyard.stream',
      ].sort(),
    );
    expect(attributes['switchyard.attempts']).toBe(0);
  });
});

describe('createTraceStage with the attempts the router reports', () => {
  it("should make each timed attempt a client span, child of its request's span", () => {
    const tracer = createRecordingTracer();
    const stage = createTraceStage(tracer);
    stage.upstreamAttempt({
      requestId: 'req_a',
      deployment: 'openai-east/gpt-5',
      outcome: 'rate_limited',
      retry: false,
      status: 429,
      startedAt: 1_010,
      durationMs: 40,
    });
    stage.upstreamAttempt({
      requestId: 'req_a',
      deployment: 'openai-west/gpt-5',
      outcome: 'ok',
      retry: true,
      status: 200,
      startedAt: 1_300,
      durationMs: 500,
    });
    stage.upstreamAttempt({ requestId: 'req_other', deployment: 'x/y', outcome: 'ok', retry: false, startedAt: 1, durationMs: 1 });
    // Without a request id and timing an attempt is counted by the metrics but not traced.
    stage.upstreamAttempt({ deployment: 'openai-east/gpt-5', outcome: 'ok', retry: false });
    stage.record(finished);

    expect(tracer.spans).toHaveLength(3);
    const [request, first, second] = tracer.spans;
    expect(request).toMatchObject({
      name: 'chat gpt',
      kind: SpanKind.SERVER,
      attributes: { 'switchyard.attempts': 2, 'switchyard.deployment': 'openai-west/gpt-5' },
    });
    expect(first).toMatchObject({
      name: 'chat openai-east/gpt-5',
      kind: SpanKind.CLIENT,
      parentSpanId: request!.spanId,
      startTime: 1_010,
      endTime: 1_050,
      status: { code: SpanStatusCode.ERROR, message: 'rate_limited' },
      attributes: {
        'switchyard.retry': false,
        'error.type': 'rate_limited',
        'http.response.status_code': 429,
        'gen_ai.request.model': 'gpt',
      },
    });
    expect(second).toMatchObject({
      name: 'chat openai-west/gpt-5',
      parentSpanId: request!.spanId,
      startTime: 1_300,
      endTime: 1_800,
      status: undefined,
      attributes: { 'switchyard.retry': true },
    });
  });

  it('should tell both the metrics and the traces of an attempt through the resolved observer', async () => {
    const tracer = createRecordingTracer();
    const resolved = resolveObservability({ metrics: true, tracing: { tracer } }, { open: () => ({ requests: 0, streams: 0 }) });
    resolved.upstream.upstreamAttempt({
      requestId: 'req_a',
      deployment: 'openai-east/gpt-5',
      outcome: 'server_error',
      retry: false,
      startedAt: 1_010,
      durationMs: 40,
    });
    for (const stage of resolved.stages) stage.record(finished);
    expect(await resolved.metrics!.registry.metrics()).toContain(
      'switchyard_upstream_attempts_total{deployment="openai-east/gpt-5",outcome="server_error"} 1',
    );
    expect(tracer.spans.map((span) => span.name)).toEqual(['chat gpt', 'chat openai-east/gpt-5']);
  });
});
