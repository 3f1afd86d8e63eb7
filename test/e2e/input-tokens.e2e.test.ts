import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/providers/anthropic/index.js';
import { createOpenAIResponsesProvider } from '../../src/providers/openai-responses/index.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { createScriptedProvider } from '../helpers/scripted-provider.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

// `POST /v1/responses/input_tokens`, the OpenAI SDK's `responses.inputTokens.count()`: the Responses
// counterpart of `POST /v1/messages/count_tokens` (count-tokens.e2e.test.ts), on the same stages.

let upstream: MockUpstream;
let running: RunningGateway;
let client: OpenAI;
beforeAll(async () => {
  upstream = await startMockUpstream();
  running = await startGateway({
    providers: {
      // A provider that cannot count: the gateway estimates.
      plain: createScriptedProvider(async function* () {}),
      responses: createOpenAIResponsesProvider({ apiKey: 'sk-upstream-responses', baseURL: `${upstream.url}/v1` }),
      anthropic: createAnthropicProvider({ apiKey: 'sk-upstream-anthropic', baseURL: upstream.url }),
    },
    models: [
      { id: 'mock', provider: 'mock' },
      { id: 'plain', provider: 'plain' },
      { id: 'smart', provider: 'responses', upstreamModel: 'gpt-5' },
      { id: 'claude', provider: 'anthropic', upstreamModel: 'claude-sonnet-4-5' },
    ],
  });
  client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
});
afterAll(async () => {
  await running.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

const input = 'How many tokens is this question?';

describe('POST /v1/responses/input_tokens', () => {
  it('should count with the provider, agreeing with the usage it reports', async () => {
    const answered = await client.responses.create({ model: 'mock', input });
    const counted = await client.responses.inputTokens.count({ model: 'mock', input });
    expect(counted).toEqual({ object: 'response.input_tokens', input_tokens: answered.usage?.input_tokens });
  });

  it('should ask an OpenAI Responses upstream for its count, under the upstream model name', async () => {
    upstream.reply({ json: { object: 'response.input_tokens', input_tokens: 4321 } });
    const counted = await client.responses.inputTokens.count({ model: 'smart', input, instructions: 'Be brief.' });
    expect(counted.input_tokens).toBe(4321);
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]?.url).toBe('/v1/responses/input_tokens');
    expect(upstream.requests[0]?.headers.authorization).toBe('Bearer sk-upstream-responses');
    expect(upstream.requests[0]?.body).toMatchObject({ model: 'gpt-5', instructions: 'Be brief.' });
  });

  it('should ask an Anthropic upstream through its count_tokens, translated', async () => {
    upstream.reply({ json: { input_tokens: 77 } });
    const counted = await client.responses.inputTokens.count({ model: 'claude', input, instructions: 'Be brief.' });
    expect(counted.input_tokens).toBe(77);
    expect(upstream.requests[0]?.url).toBe('/v1/messages/count_tokens');
    expect(upstream.requests[0]?.body).toMatchObject({
      model: 'claude-sonnet-4-5',
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: input }] }],
    });
  });

  it('should estimate when the provider cannot count', async () => {
    const small = await client.responses.inputTokens.count({ model: 'plain', input });
    const large = await client.responses.inputTokens.count({ model: 'plain', input, instructions: 'Answer carefully. '.repeat(100) });
    expect(small.input_tokens).toBeGreaterThan(5);
    expect(large.input_tokens - small.input_tokens).toBeGreaterThan(250);
  });

  it('should answer errors in the OpenAI shape', async () => {
    await expect(client.responses.inputTokens.count({ model: 'nope', input })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const wrongKey = new OpenAI({ apiKey: 'wrong', baseURL: running.openAIBaseURL, maxRetries: 0 });
    await expect(wrongKey.responses.inputTokens.count({ model: 'mock', input })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    // The gateway routes by model: a count without one is refused, naming the field.
    const unnamed = await client.responses.inputTokens.count({ input }).catch((error: unknown) => error);
    expect(unnamed).toBeInstanceOf(OpenAI.BadRequestError);
    expect((unnamed as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('model');
  });

  it('should say which part of the base URL is wrong when /v1 is missing', async () => {
    const withoutV1 = new OpenAI({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
    const error = await withoutV1.responses.inputTokens.count({ model: 'mock', input }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('missing_v1_path');
  });
});

describe('POST /v1/responses/input_tokens runs the checks a generation request does', () => {
  let checked: RunningGateway;
  let openai: OpenAI;
  beforeAll(async () => {
    checked = await startGateway({
      providers: {
        plain: createScriptedProvider(async function* () {}),
        // Carries hosted tools, so the request policy (not the capability check) is what stops one.
        responses: createOpenAIResponsesProvider({ apiKey: 'sk-upstream-responses', baseURL: `${upstream.url}/v1` }),
      },
      models: [
        { id: 'text-only', provider: 'plain', capabilities: { images: false, reasoning: false } },
        { id: 'open', provider: 'plain' },
        { id: 'hosted', provider: 'responses', upstreamModel: 'gpt-5' },
      ],
    });
    openai = new OpenAI({ apiKey: TEST_KEY, baseURL: checked.openAIBaseURL, maxRetries: 0 });
  });
  afterAll(() => checked.close());

  const withImage = [
    {
      role: 'user' as const,
      content: [
        { type: 'input_image' as const, image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' as const },
        { type: 'input_text' as const, text: 'What is this?' },
      ],
    },
  ];
  const withoutId = (error: unknown) => (error as Error).message.replace(/req_[0-9a-f]+/, 'req_');

  it('should refuse what the request policy refuses, as generation does', async () => {
    // The default policy refuses hosted tools that reach other servers.
    const tools = [
      { type: 'mcp' as const, server_label: 'docs', server_url: 'https://mcp.example.com', require_approval: 'never' as const },
    ];
    const counted = await openai.responses.inputTokens.count({ model: 'hosted', input, tools }).catch((error: unknown) => error);
    expect(counted).toBeInstanceOf(OpenAI.BadRequestError);
    const generated = await openai.responses.create({ model: 'hosted', input, tools }).catch((error: unknown) => error);
    expect(withoutId(counted)).toBe(withoutId(generated));
    expect(withoutId(counted)).toMatch(/mcp/i);
    expect(upstream.requests).toHaveLength(0);
  });

  it('should refuse what the model cannot carry (the capability check)', async () => {
    const error = await openai.responses.inputTokens.count({ model: 'text-only', input: withImage }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toMatch(/image/i);
    expect((await openai.responses.inputTokens.count({ model: 'open', input: withImage })).input_tokens).toBeGreaterThan(0);
  });

  it('should leave out what the adapt policy leaves out, and say so', async () => {
    const { data, response } = await openai.responses.inputTokens
      .count({ model: 'text-only', input, reasoning: { effort: 'high' } })
      .withResponse();
    expect(data.input_tokens).toBeGreaterThan(0);
    expect(response.headers.get('x-switchyard-adapted')).toBe('reasoning');
  });
});
