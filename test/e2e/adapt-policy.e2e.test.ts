import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/logger.js';
import type { GatewayOptions } from '../../src/gateway/options.js';
import type { MockUpstream } from '../helpers/mock-upstream.js';
import { startProtocolUpstream } from '../helpers/protocol-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

/** Debug and info lines the gateway logged (the adaptation line is at debug: the request log carries it too). */
const infoLines: Array<{ object: Record<string, unknown>; message: string | undefined }> = [];
const logger: Logger = {
  debug: (object, message) => void infoLines.push({ object: object as Record<string, unknown>, message }),
  info: (object, message) => void infoLines.push({ object: object as Record<string, unknown>, message }),
  warn() {},
  error() {},
};

let upstream: MockUpstream;
let running: RunningGateway;
let strict: RunningGateway;
let openai: OpenAI;
let anthropic: Anthropic;
let strictOpenAI: OpenAI;

function options(extra: Partial<GatewayOptions> = {}): GatewayOptions {
  return {
    logger,
    providers: {
      openai: { apiKey: 'sk-up', baseURL: `${upstream.url}/v1` },
      'openai-responses': { apiKey: 'sk-up', baseURL: `${upstream.url}/v1` },
      anthropic: { apiKey: 'sk-ant-up', baseURL: upstream.url },
    },
    models: [
      // gpt-4.1-mini: no reasoning (told by its id); Chat runs no hosted tools but Chat's own.
      { id: 'via-chat', provider: 'openai', upstreamModel: 'gpt-4.1-mini' },
      { id: 'via-responses', provider: 'openai-responses', upstreamModel: 'gpt-4.1-mini' },
      { id: 'via-anthropic', provider: 'anthropic', upstreamModel: 'claude-x' },
      { id: 'claude-no-thinking', provider: 'anthropic', upstreamModel: 'claude-3-5-haiku' },
      { id: 'chat-strict', provider: 'openai', upstreamModel: 'gpt-4.1-mini', adapt: false },
      {
        id: 'text-only',
        provider: 'openai',
        upstreamModel: 'gpt-4.1-mini',
        capabilities: { images: false, files: false, audio: false, tools: false, structuredOutput: false },
      },
    ],
    ...extra,
  };
}

beforeAll(async () => {
  upstream = await startProtocolUpstream();
  running = await startGateway(options());
  strict = await startGateway(options({ adapt: false }));
  openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
  strictOpenAI = new OpenAI({ apiKey: TEST_KEY, baseURL: strict.openAIBaseURL, maxRetries: 0 });
});
afterAll(async () => {
  await running.close();
  await strict.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
  infoLines.length = 0;
});

/** The body the upstream received last, as JSON text (to look for any trace of a field). */
const sentText = () => JSON.stringify(upstream.requests.at(-1)?.body);
const sentBody = () => upstream.requests.at(-1)?.body as Record<string, unknown>;

/** Asserts the answer named `adapted`, and that one info line said the same for its request. */
function expectAdapted(headers: Headers, adapted: string) {
  expect(headers.get('x-switchyard-adapted')).toBe(adapted);
  const lines = infoLines.filter((line) => line.object.requestId === headers.get('x-request-id'));
  expect(lines).toHaveLength(1);
  expect(lines[0]?.object.adaptations).toEqual(adapted.split(', '));
  expect(lines[0]?.message).toContain('adapted');
}

const userTurn = [{ role: 'user' as const, content: 'Hi' }];

describe('the adapt policy: hints the model cannot take are left out and named', () => {
  it("should leave out Claude Code's thinking and effort for a model without reasoning (Messages → Chat)", async () => {
    const { data, response } = await anthropic.messages
      .create({
        model: 'via-chat',
        max_tokens: 1000,
        messages: userTurn,
        thinking: { type: 'adaptive', display: 'omitted' },
        output_config: { effort: 'high' },
      } as Anthropic.MessageCreateParamsNonStreaming)
      .withResponse();
    expect(data.content).toEqual([expect.objectContaining({ type: 'text', text: 'ok' })]);
    expectAdapted(response.headers, 'reasoning');
    expect(sentText()).not.toMatch(/reasoning|thinking|effort/);
  });

  it('should leave out a Chat reasoning_effort for a model without reasoning, also in a stream', async () => {
    const { data: stream, response } = await openai.chat.completions
      .create({ model: 'via-chat', messages: userTurn, reasoning_effort: 'high', stream: true })
      .withResponse();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('ok');
    expectAdapted(response.headers, 'reasoning');
    expect(sentText()).not.toMatch(/reasoning|effort/);
  });

  it("should leave out Codex's reasoning request and its encrypted reasoning on the same protocol (Responses → Responses)", async () => {
    const { data, response } = await openai.responses
      .create({
        model: 'via-responses',
        input: 'Hi',
        reasoning: { effort: 'high', summary: 'auto' },
        include: ['reasoning.encrypted_content'],
        store: false,
      })
      .withResponse();
    expect(data.output_text).toBe('ok');
    expectAdapted(response.headers, 'reasoning');
    expect(sentText()).not.toMatch(/reasoning|effort|summary/);
    expect(sentBody().include).toBeUndefined();
  });

  it('should leave out thinking for a Claude model without it (Messages → Messages)', async () => {
    const { response } = await anthropic.messages
      .create({ model: 'claude-no-thinking', max_tokens: 2000, messages: userTurn, thinking: { type: 'enabled', budget_tokens: 1024 } })
      .withResponse();
    expectAdapted(response.headers, 'reasoning');
    expect(sentText()).not.toMatch(/thinking|budget_tokens/);
    expect(sentBody().max_tokens).toBe(2000);
  });

  it("should leave out Codex's web_search for a model that cannot run it, keeping the functions (Responses → Messages)", async () => {
    const { data, response } = await openai.responses
      .create({
        model: 'via-anthropic',
        input: 'Hi',
        tools: [{ type: 'function', name: 'exec', parameters: { type: 'object', properties: {} }, strict: false }, { type: 'web_search' }],
      })
      .withResponse();
    expect(data.output_text).toBe('ok');
    expectAdapted(response.headers, 'tools.web_search');
    expect((sentBody().tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual(['exec']);
    expect(sentText()).not.toContain('web_search');
  });

  it('should leave out an Anthropic server tool for an OpenAI model, and the tool choice with the last tool (Messages → Chat)', async () => {
    const { response } = await anthropic.messages
      .create({
        model: 'via-chat',
        max_tokens: 100,
        messages: userTurn,
        tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 2 }],
        tool_choice: { type: 'auto' },
      })
      .withResponse();
    expectAdapted(response.headers, 'tools.web_search');
    expect(sentText()).not.toMatch(/web_search|tool_choice|"tools"/);
  });

  it('should name prompt-cache hints the provider has no field for (Messages cache_control → Chat, Responses prompt_cache_key → Messages)', async () => {
    const fromClaude = await anthropic.messages
      .create({
        model: 'via-chat',
        max_tokens: 100,
        system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral', ttl: '1h' } }] }],
      })
      .withResponse();
    expectAdapted(fromClaude.response.headers, 'cache');
    expect(sentText()).not.toContain('cache_control');

    const fromCodex = await openai.responses.create({ model: 'via-anthropic', input: 'Hi', prompt_cache_key: 'session-1' }).withResponse();
    expectAdapted(fromCodex.response.headers, 'cache');
    expect(sentText()).not.toMatch(/prompt_cache|session-1/);
  });

  it('should name a service tier and speed left out on the way, and a hosted tool the request policy strips', async () => {
    const tier = await openai.chat.completions.create({ model: 'via-anthropic', messages: userTurn, service_tier: 'flex' }).withResponse();
    expectAdapted(tier.response.headers, 'service_tier');
    expect(sentText()).not.toContain('service_tier');

    const speed = await anthropic.messages
      .create({ model: 'via-chat', max_tokens: 100, messages: userTurn, speed: 'fast' } as Anthropic.MessageCreateParamsNonStreaming)
      .withResponse();
    expectAdapted(speed.response.headers, 'speed');
    expect(sentText()).not.toContain('fast');

    // The model runs web_search, but the default request policy strips it: named all the same.
    const stripped = await openai.responses
      .create({ model: 'via-responses', input: 'Hi', tools: [{ type: 'web_search' }], service_tier: 'priority' })
      .withResponse();
    expectAdapted(stripped.response.headers, 'tools.web_search, service_tier');
    expect(sentText()).not.toMatch(/web_search|service_tier|priority/);
  });

  it('should name several adaptations in one header, in one log line', async () => {
    const { response } = await openai.responses
      .create({ model: 'via-chat', input: 'Hi', reasoning: { summary: 'auto' }, tools: [{ type: 'web_search' }], prompt_cache_key: 'k' })
      .withResponse();
    expectAdapted(response.headers, 'reasoning, tools.web_search, cache');
    expect(sentText()).not.toMatch(/reasoning|web_search|prompt_cache/);
  });

  it('should send no header and log nothing when nothing was left out', async () => {
    const { response } = await openai.chat.completions.create({ model: 'via-chat', messages: userTurn }).withResponse();
    expect(response.headers.get('x-switchyard-adapted')).toBeNull();
    expect(infoLines).toEqual([]);
  });
});

/** The 400 a call failed with: its status and message. */
async function refusal(call: () => Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await call().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  const { status, message } = error as { status: number; message: string };
  return { status, message };
}

describe('the adapt policy: what would change the answer is still refused, naming it', () => {
  const cases: Array<[feature: string, call: () => Promise<unknown>]> = [
    [
      'image input',
      () =>
        openai.chat.completions.create({
          model: 'text-only',
          messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }],
        }),
    ],
    [
      'file input',
      () =>
        openai.chat.completions.create({
          model: 'text-only',
          messages: [
            { role: 'user', content: [{ type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } }] },
          ],
        }),
    ],
    [
      'audio input',
      () =>
        openai.chat.completions.create({
          model: 'text-only',
          messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }] }],
        }),
    ],
    [
      'tools',
      () =>
        openai.chat.completions.create({
          model: 'text-only',
          messages: userTurn,
          tools: [{ type: 'function', function: { name: 'exec', parameters: { type: 'object', properties: {} } } }],
        }),
    ],
    [
      'structured (JSON) output',
      () =>
        openai.chat.completions.create({
          model: 'text-only',
          messages: userTurn,
          response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object', properties: {} } } },
        }),
    ],
    [
      "'web_search' tool",
      () =>
        openai.responses.create({
          model: 'via-anthropic',
          input: 'Hi',
          tools: [{ type: 'web_search' }],
          tool_choice: { type: 'web_search_preview' },
        }),
    ],
    [
      "'web_search' tool",
      () => openai.responses.create({ model: 'via-anthropic', input: 'Hi', tools: [{ type: 'web_search' }], tool_choice: 'required' }),
    ],
  ];

  it.each(cases)('should refuse %s with a 400 naming it, calling no upstream', async (feature, call) => {
    const { status, message } = await refusal(call);
    expect(status).toBe(400);
    expect(message).toContain(feature);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('adapt: false', () => {
  it('should refuse reasoning for a model without it, as before, per model and for the whole gateway', async () => {
    for (const [client, model] of [
      [openai, 'chat-strict'],
      [strictOpenAI, 'via-chat'],
    ] as const) {
      const { status, message } = await refusal(() =>
        client.chat.completions.create({ model, messages: userTurn, reasoning_effort: 'high' }),
      );
      expect(status).toBe(400);
      expect(message).toContain('does not support reasoning');
    }
    expect(upstream.requests).toHaveLength(0);
  });

  it('should refuse a hosted tool the model cannot run, as before', async () => {
    const strictAnthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: strict.root, maxRetries: 0 });
    const { status, message } = await refusal(() =>
      strictAnthropic.messages.create({
        model: 'via-chat',
        max_tokens: 100,
        messages: userTurn,
        tools: [{ type: 'web_search_20250305', name: 'web_search' }],
      }),
    );
    expect(status).toBe(400);
    expect(message).toContain("'web_search_20250305' tool");
    expect(upstream.requests).toHaveLength(0);
  });

  it('should still name what the protocols leave behind, refusing nothing more than before', async () => {
    const { response } = await strictOpenAI.responses.create({ model: 'via-anthropic', input: 'Hi', prompt_cache_key: 'k' }).withResponse();
    expect(response.headers.get('x-switchyard-adapted')).toBe('cache');
  });
});
