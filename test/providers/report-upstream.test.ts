import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalRequest, UpstreamResponseInfo } from '../../src/canonical/index.js';
import { silentLogger } from '../../src/logger.js';
import { createAnthropicProvider } from '../../src/providers/anthropic/index.js';
import { createGeminiProvider } from '../../src/providers/gemini/index.js';
import { createOpenAIResponsesProvider } from '../../src/providers/openai-responses/index.js';
import { createOpenAIProvider } from '../../src/providers/openai/index.js';
import type { ProviderAdapter, ProviderContext } from '../../src/providers/types.js';
import { startMockUpstream, type MockReply, type MockUpstream } from '../helpers/mock-upstream.js';
import { jsonFixture, sseFixture } from '../helpers/fixtures.js';

let upstream: MockUpstream;
beforeAll(async () => {
  upstream = await startMockUpstream();
});
afterAll(() => upstream.close());

const chatAnswer = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};
const geminiAnswer = {
  candidates: [{ content: { role: 'model', parts: [{ text: 'hi' }] }, finishReason: 'STOP' }],
  usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
};

interface Case {
  name: string;
  adapter: () => ProviderAdapter;
  json: unknown;
  sse: string;
  headers: Record<string, string>;
  expected: Omit<UpstreamResponseInfo, 'status'>;
}

const openAIHeaders = { 'x-request-id': 'req_upstream_1', 'x-ratelimit-remaining-requests': '59', 'x-ratelimit-reset-tokens': '6ms' };
const openAIExpected = {
  requestId: 'req_upstream_1',
  rateLimit: { 'x-ratelimit-remaining-requests': '59', 'x-ratelimit-reset-tokens': '6ms' },
};
const cases: Case[] = [
  {
    name: 'openai',
    adapter: () => createOpenAIProvider({ apiKey: 'sk-up', baseURL: `${upstream.url}/v1` }),
    json: chatAnswer,
    sse: sseFixture('chat-completions', 'upstream-text'),
    headers: openAIHeaders,
    expected: openAIExpected,
  },
  {
    name: 'openai-responses',
    adapter: () => createOpenAIResponsesProvider({ apiKey: 'sk-up', baseURL: `${upstream.url}/v1` }),
    json: jsonFixture('responses', 'upstream-response'),
    sse: sseFixture('responses', 'upstream-text'),
    headers: openAIHeaders,
    expected: openAIExpected,
  },
  {
    name: 'anthropic',
    adapter: () => createAnthropicProvider({ apiKey: 'sk-ant-up', baseURL: upstream.url }),
    json: jsonFixture('messages', 'upstream-response'),
    sse: sseFixture('messages', 'upstream-text'),
    headers: { 'request-id': 'req_011', 'anthropic-ratelimit-requests-remaining': '49', 'retry-after': '3' },
    expected: { requestId: 'req_011', rateLimit: { 'anthropic-ratelimit-requests-remaining': '49', 'retry-after': '3' } },
  },
  {
    name: 'gemini',
    adapter: () => createGeminiProvider({ apiKey: 'AIza-up', baseURL: upstream.url }),
    json: geminiAnswer,
    sse: sseFixture('gemini', 'stream-text'),
    headers: {},
    expected: {},
  },
];

const request = (stream: boolean): CanonicalRequest => ({
  model: 'm',
  stream,
  maxOutputTokens: 64,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
});

function context(reports: UpstreamResponseInfo[]): ProviderContext {
  return {
    signal: new AbortController().signal,
    requestId: 'req_1',
    gatewayModel: 'm',
    logger: silentLogger,
    reportUpstream: (info) => reports.push(info),
  };
}

describe('built-in adapters', () => {
  for (const entry of cases) {
    describe(entry.name, () => {
      it('should report the upstream status, request id and rate-limit headers of a JSON call and of a stream', async () => {
        const reply = (body: Partial<MockReply>) => ({ headers: entry.headers, ...body }) as MockReply;
        const adapter = entry.adapter();
        const reports: UpstreamResponseInfo[] = [];
        upstream.reply(reply({ json: entry.json }));
        await adapter.generate(request(false), context(reports));
        upstream.reply(reply({ sse: entry.sse }));
        for await (const event of adapter.stream(request(true), context(reports))) void event;
        expect(reports).toEqual([
          { status: 200, ...entry.expected },
          { status: 200, ...entry.expected },
        ]);
        await adapter.close?.();
      });

      it('should report an error status too', async () => {
        const adapter = entry.adapter();
        const reports: UpstreamResponseInfo[] = [];
        upstream.reply({
          status: 429,
          headers: { ...entry.headers, 'retry-after': '3' },
          json: { error: { message: 'slow down', type: 'rate_limit_error' } },
        });
        await expect(adapter.generate(request(false), context(reports))).rejects.toMatchObject({ status: 429 });
        expect(reports).toEqual([expect.objectContaining({ status: 429, rateLimit: expect.objectContaining({ 'retry-after': '3' }) })]);
        await adapter.close?.();
      });

      it('should answer no more calls once closed', async () => {
        const adapter = entry.adapter();
        upstream.reply({ json: entry.json });
        await adapter.generate(request(false), context([]));
        await adapter.close?.();
        await expect(adapter.generate(request(false), context([]))).rejects.toMatchObject({ code: 'UPSTREAM_UNREACHABLE' });
      });
    });
  }
});
