import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalRequest, CanonicalStreamEvent } from '../../../src/canonical/index.js';
import { silentLogger } from '../../../src/logger.js';
import type { GeminiRequest } from '../../../src/protocols/gemini/index.js';
import { createProviderFromConfig } from '../../../src/providers/create-provider.js';
import { createGeminiProvider } from '../../../src/providers/gemini/index.js';
import type { ProviderAdapter, ProviderContext } from '../../../src/providers/types.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';
import { jsonFixture, sseFixture } from '../../helpers/fixtures.js';

let mock: MockUpstream;
let adapter: ProviderAdapter;

beforeEach(async () => {
  mock = await startMockUpstream();
  adapter = createGeminiProvider({ apiKey: 'AIza-provider-key', baseURL: `${mock.url}/v1beta`, headers: { 'x-goog-user-project': 'p1' } });
});
afterEach(async () => {
  await mock.close();
});

const context = (signal = new AbortController().signal): ProviderContext => ({
  signal,
  requestId: 'req_42',
  gatewayModel: 'my-gemini',
  logger: silentLogger,
});

async function collect(events: AsyncIterable<CanonicalStreamEvent>): Promise<CanonicalStreamEvent[]> {
  const all: CanonicalStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

const weatherTurn: CanonicalRequest = {
  model: 'gemini-3.5-flash',
  stream: false,
  system: [{ type: 'text', text: 'You are a weather bot.' }],
  tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture, and the weather?' },
        { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo' } },
      ],
    },
  ],
};

describe('createGeminiProvider', () => {
  it('should post to models/{model}:generateContent with the provider key and the translated body', async () => {
    mock.reply({ json: jsonFixture('gemini', 'tool-call-response') });
    const response = await adapter.generate(weatherTurn, context());
    const received = mock.requests[0]!;
    expect(received.url).toBe('/v1beta/models/gemini-3.5-flash:generateContent');
    expect(received.headers['x-goog-api-key']).toBe('AIza-provider-key');
    expect(received.headers['x-goog-user-project']).toBe('p1');
    expect(received.headers.authorization).toBeUndefined();
    const body = received.body as GeminiRequest;
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'You are a weather bot.' }] });
    expect(body.contents[0]?.parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo' } });
    expect(body.tools?.[0]?.functionDeclarations.map((declaration) => declaration.name)).toEqual(['get_weather']);
    expect(body).not.toHaveProperty('model');
    expect(response.finishReason.unified).toBe('tool-calls');
    expect(response.content.find((part) => part.type === 'tool-call')).toMatchObject({
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    });
  });

  it("should send the tool result back as a functionResponse under the call's name, with the signature replayed", async () => {
    mock.reply({ json: jsonFixture('gemini', 'tool-call-response') }, { json: jsonFixture('gemini', 'thinking-text-response') });
    const first = await adapter.generate(weatherTurn, context());
    const call = first.content.find((part) => part.type === 'tool-call');
    if (call?.type !== 'tool-call') throw new Error('expected a tool call');
    await adapter.generate(
      {
        ...weatherTurn,
        messages: [
          ...weatherTurn.messages,
          { role: 'assistant', content: first.content },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: call.id, content: [{ type: 'text', text: 'sunny, 21 C' }] }] },
        ],
      },
      context(),
    );
    const body = mock.requests[1]!.body as GeminiRequest;
    expect(body.contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    expect(body.contents[1]?.parts[1]).toEqual({
      functionCall: { name: 'get_weather', args: { city: 'Paris' }, id: expect.any(String) },
      thoughtSignature: 'CiQBe/x+AAA=',
    });
    expect(body.contents[2]?.parts).toEqual([
      { functionResponse: { name: 'get_weather', id: body.contents[1]?.parts[1]?.functionCall?.id, response: { output: 'sunny, 21 C' } } },
    ]);
  });

  it('should stream from :streamGenerateContent?alt=sse, decoding frames split inside characters', async () => {
    mock.reply({ sse: sseFixture('gemini', 'stream-text'), chunkBytes: 1 });
    const events = await collect(adapter.stream({ ...weatherTurn, stream: true }, context()));
    expect(mock.requests[0]!.url).toBe('/v1beta/models/gemini-3.5-flash:streamGenerateContent?alt=sse');
    expect(events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join('')).toBe('Sunny over Paris — 21 °C ☀️');
    expect(events.at(-1)).toMatchObject({ type: 'finish', usage: { outputTokens: 21, cachedInputTokens: 8 } });
  });

  it('should stop at an in-band error frame and release the upstream', async () => {
    const frames = `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: 'Hi' }] } }] })}\r\n\r\ndata: ${JSON.stringify({
      error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' },
    })}\r\n\r\n`;
    mock.reply({ hang: true, sse: frames });
    const events = await collect(adapter.stream({ ...weatherTurn, stream: true }, context()));
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { status: 500, retryable: true, message: 'Internal error encountered.' } });
    await expect.poll(() => mock.closedConnections).toBe(1);
  });

  it('should refuse an image URL it cannot forward before calling the upstream', async () => {
    const request: CanonicalRequest = {
      model: 'gemini-3.5-flash',
      stream: false,
      messages: [{ role: 'user', content: [{ type: 'image', source: { kind: 'url', url: 'http://intranet/cat' } }] }],
    };
    await expect(adapter.generate(request, context())).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("'my-gemini'"),
    });
    expect(mock.requests).toHaveLength(0);
  });

  it('should keep a tuned model path as given', async () => {
    mock.reply({ json: jsonFixture('gemini', 'thinking-text-response') });
    await adapter.generate({ ...weatherTurn, model: 'tunedModels/my-model-123' }, context());
    expect(mock.requests[0]!.url).toBe('/v1beta/tunedModels/my-model-123:generateContent');
  });

  it('should say which models think, and that Gemma takes no tools', () => {
    expect(adapter.capabilities?.('gemini-3.5-flash')).toMatchObject({ reasoning: true, tools: true, providerTools: [] });
    expect(adapter.capabilities?.('gemini-2.0-flash')).toMatchObject({ reasoning: false, tools: true });
    expect(adapter.capabilities?.('gemma-3-27b-it')).toMatchObject({ reasoning: false, tools: false });
    expect(adapter.protocol).toBeUndefined();
  });
});

describe('gemini provider configuration', () => {
  it('should be a built-in type that validates its options strictly', () => {
    expect(createProviderFromConfig('google', { type: 'gemini', apiKey: 'AIza-x' }).id).toBe('gemini');
    expect(() => createProviderFromConfig('gemini', { apiKey: 'AIza-x', apikey: 'typo' })).toThrow(/apikey/);
  });

  it('should demand a key when neither the options nor the environment give one', () => {
    const saved = { gemini: process.env.GEMINI_API_KEY, google: process.env.GOOGLE_API_KEY };
    delete process.env.GEMINI_API_KEY;
    delete process.env.GOOGLE_API_KEY;
    try {
      expect(() => createGeminiProvider()).toThrow(expect.objectContaining({ code: 'CONFIG_PROVIDER_API_KEY_MISSING' }));
      process.env.GEMINI_API_KEY = 'AIza-env';
      expect(createGeminiProvider().id).toBe('gemini');
    } finally {
      if (saved.gemini === undefined) delete process.env.GEMINI_API_KEY;
      else process.env.GEMINI_API_KEY = saved.gemini;
      if (saved.google !== undefined) process.env.GOOGLE_API_KEY = saved.google;
    }
  });
});
