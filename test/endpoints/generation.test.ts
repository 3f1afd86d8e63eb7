import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError, type Usage, upstreamErrorCode } from '../../src/canonical/index.js';
import type { RequestStages } from '../../src/endpoints/stages.js';
import type { AdmissionRequest } from '../../src/limits/admit-stage.js';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { ENDPOINT_KEY, serveEndpoint, tracingStages, type ServedEndpoint } from '../helpers/serve-endpoint.js';
import { createMockProvider } from '../../src/providers/mock/index.js';
import type { ProviderAdapter, ProviderContext } from '../../src/providers/types.js';
import { chatCodec } from '../../src/protocols/chat-completions/index.js';
import type { RequestRecord } from '../../src/usage/record-stage.js';

let served: ServedEndpoint | undefined;
afterEach(() => served?.close());

/** Serves the Chat endpoint with the given stages swapped in, and records what each stage saw. */
async function serveChat(stages: (defaults: RequestStages, seen: string[]) => Partial<RequestStages>, options: GatewayOptions = {}) {
  served = await serveEndpoint(chatCodec, stages, options);
  const client = new OpenAI({ apiKey: ENDPOINT_KEY, baseURL: served.baseURL, maxRetries: 0 });
  return { client, seen: served.seen };
}

const hello = [{ role: 'user' as const, content: 'Hello' }];

describe('createGenerationEndpoint', () => {
  it("should run authenticate, admit, call, release and record in order, with the answer's usage", async () => {
    const records: RequestRecord[] = [];
    const releases: (Usage | undefined)[] = [];
    const admitted: AdmissionRequest[] = [];
    const { client, seen } = await serveChat(tracingStages(records, releases, admitted));

    const completion = await client.chat.completions.create({ model: 'mock', messages: hello });
    expect(seen).toEqual(['authenticate', 'admit', 'call', 'release', 'record']);
    expect(admitted[0]).toMatchObject({ model: 'mock', provider: 'mock', caller: {} });
    expect(admitted[0]?.requestId).toMatch(/^req_/);
    expect(releases[0]?.outputTokens).toBe(completion.usage?.completion_tokens);
    expect(records[0]).toMatchObject({
      requestId: admitted[0]?.requestId,
      protocol: 'chat',
      model: 'mock',
      provider: 'mock',
      stream: false,
      status: 200,
      errorCode: undefined,
    });
    expect(records[0]?.usage?.inputTokens).toBe(completion.usage?.prompt_tokens);
  });

  it('should record what the adapt policy left out, and nothing when it left nothing out', async () => {
    const records: RequestRecord[] = [];
    const { client } = await serveChat(tracingStages(records, [], []), {
      models: [{ id: 'plain', provider: 'mock', capabilities: { reasoning: false } }],
    });
    await client.chat.completions.create({ model: 'plain', messages: hello, reasoning_effort: 'high' });
    await client.chat.completions.create({ model: 'plain', messages: hello });
    expect(records.map((record) => record.adaptations)).toEqual([['reasoning'], undefined]);
  });

  it("should record a stream's usage from its finish event", async () => {
    const records: RequestRecord[] = [];
    const releases: (Usage | undefined)[] = [];
    const { client, seen } = await serveChat(tracingStages(records, releases, []));

    const stream = await client.chat.completions.create({
      model: 'mock',
      messages: hello,
      stream: true,
      stream_options: { include_usage: true },
    });
    let outputTokens: number | undefined;
    for await (const chunk of stream) outputTokens = chunk.usage?.completion_tokens ?? outputTokens;
    await expect.poll(() => records.length).toBe(1);
    expect(seen).toEqual(['authenticate', 'admit', 'call', 'release', 'record']);
    expect(outputTokens).toBeGreaterThan(0);
    expect(records[0]).toMatchObject({ stream: true, status: 200, errorCode: undefined });
    expect(records[0]?.usage?.outputTokens).toBe(outputTokens);
    expect(releases).toEqual([records[0]?.usage]);
  });

  it("should answer an admit refusal as a 429 in the caller's protocol without calling the provider", async () => {
    const records: RequestRecord[] = [];
    const { client, seen } = await serveChat((defaults, seen) => ({
      ...tracingStages(records, [], [])(defaults, seen),
      admit: {
        admit() {
          seen.push('admit');
          throw new GatewayError({ kind: 'rate_limit', code: 'RATE_LIMITED', message: 'Too many requests for this key.', retryAfter: 7 });
        },
      },
    }));

    const failure = await client.chat.completions.create({ model: 'mock', messages: hello }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
    const rateLimit = failure as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rateLimit.status).toBe(429);
    expect(rateLimit.headers.get('retry-after')).toBe('7');
    expect(rateLimit.headers.get('x-request-id')).toMatch(/^req_/);
    expect(seen).toEqual(['authenticate', 'admit', 'record']);
    expect(records[0]).toMatchObject({ status: 429, errorCode: 'RATE_LIMITED', usage: undefined, model: 'mock' });
  });

  it('should release the admission with no usage when the call fails before any output', async () => {
    const records: RequestRecord[] = [];
    const releases: (Usage | undefined)[] = [];
    const { client } = await serveChat((defaults, seen) => ({
      ...tracingStages(records, releases, [])(defaults, seen),
      call: {
        generate: () =>
          Promise.reject(new GatewayError({ kind: 'overloaded', code: upstreamErrorCode('UPSTREAM_OVERLOADED'), message: 'busy' })),
        stream: () =>
          Promise.reject(new GatewayError({ kind: 'overloaded', code: upstreamErrorCode('UPSTREAM_OVERLOADED'), message: 'busy' })),
      },
    }));

    const failure = await client.chat.completions.create({ model: 'mock', messages: hello, stream: true }).catch((error: unknown) => error);
    expect((failure as { status?: number }).status).toBe(503);
    expect(releases).toEqual([undefined]);
    expect(records[0]).toMatchObject({ stream: true, status: 503, errorCode: 'UPSTREAM_OVERLOADED', usage: undefined });
  });

  it('should record a failed authentication without a caller or a model', async () => {
    const records: RequestRecord[] = [];
    const { seen } = await serveChat(tracingStages(records, [], []));
    const client = new OpenAI({ apiKey: 'wrong', baseURL: served!.baseURL, maxRetries: 0 });

    const failure = await client.chat.completions.create({ model: 'mock', messages: hello }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(seen).toEqual(['authenticate', 'record']);
    expect(records[0]).toMatchObject({ caller: undefined, model: undefined, status: 401, errorCode: 'INVALID_API_KEY' });
  });

  describe('upstream reports', () => {
    /** The mock provider, reporting an upstream answer the way the built-in adapters do, and noting its contexts. */
    function reportingProvider(contexts: ProviderContext[]): ProviderAdapter {
      const mock = createMockProvider();
      return {
        ...mock,
        id: 'reporting',
        generate(request, context) {
          contexts.push(context);
          context.reportUpstream?.({ status: 200, requestId: 'up_1', rateLimit: { 'x-ratelimit-remaining-requests': '9' } });
          return mock.generate(request, context);
        },
      };
    }

    it('should hand the record stage what the provider reported, when the record stage asks for it', async () => {
      const records: RequestRecord[] = [];
      const contexts: ProviderContext[] = [];
      const { client } = await serveChat(() => ({ record: { wantsUpstream: true, record: (entry) => void records.push(entry) } }), {
        providers: { reporting: reportingProvider(contexts) },
        models: [{ id: 'mock', provider: 'reporting' }],
      });
      await client.chat.completions.create({ model: 'mock', messages: hello });
      expect(records[0]?.upstream).toEqual({ status: 200, requestId: 'up_1', rateLimit: { 'x-ratelimit-remaining-requests': '9' } });
    });

    it('should ask providers for nothing when the record stage does not want it', async () => {
      const records: RequestRecord[] = [];
      const contexts: ProviderContext[] = [];
      const { client } = await serveChat(() => ({ record: { record: (entry) => void records.push(entry) } }), {
        providers: { reporting: reportingProvider(contexts) },
        models: [{ id: 'mock', provider: 'reporting' }],
      });
      await client.chat.completions.create({ model: 'mock', messages: hello });
      expect(contexts[0]?.reportUpstream).toBeUndefined();
      expect(records[0]?.upstream).toBeUndefined();
    });
  });
});
