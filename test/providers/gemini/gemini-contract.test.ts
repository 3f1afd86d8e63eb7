import { createGeminiProvider } from '../../../src/providers/gemini/index.js';
import { runAdapterContract } from '../../../src/testing/index.js';
import { startMockUpstream, type MockReply } from '../../helpers/mock-upstream.js';
import { jsonFixture, sseFixture } from '../../helpers/fixtures.js';

/** The non-streamed twin of `stream-text.chunks.txt`: the same visible text. */
const textJson = {
  candidates: [{ content: { role: 'model', parts: [{ text: 'Sunny over Paris — 21 °C ☀️' }] }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 9, totalTokenCount: 29 },
  modelVersion: 'gemini-3.5-flash',
  responseId: 'resp-json',
};

const toolJson = {
  candidates: [
    {
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'Q2lRQ0FRLi4u' }],
      },
      finishReason: 'STOP',
      index: 0,
    },
  ],
  usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 5, totalTokenCount: 25 },
  responseId: 'resp-tool',
};

const isStream = (url: string) => url.includes(':streamGenerateContent');

runAdapterContract({
  name: 'gemini',
  createAdapter: async (scenario) => {
    const upstream = await startMockUpstream();
    const replies: Record<typeof scenario, (url: string) => MockReply> = {
      // Split every byte: inside "—", "°" and "☀️", and inside the \r\n\r\n frame separators.
      text: (url) => (isStream(url) ? { sse: sseFixture('gemini', 'stream-text'), chunkBytes: 1 } : { json: textJson }),
      'tool-call': (url) => (isStream(url) ? { sse: sseFixture('gemini', 'stream-tool-call'), chunkBytes: 9 } : { json: toolJson }),
      'rate-limit': () => ({
        status: 429,
        json: {
          error: {
            code: 429,
            message: 'Resource has been exhausted (e.g. check quota).',
            status: 'RESOURCE_EXHAUSTED',
            details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3s' }],
          },
        },
      }),
      'bad-request': () => ({ status: 400, json: jsonFixture('gemini', 'error-400-signature') }),
      hang: () => ({ hang: true, sse: `${sseFixture('gemini', 'stream-text').split('\r\n\r\n').slice(0, 3).join('\r\n\r\n')}\r\n\r\n` }),
    };
    upstream.reply((request) => replies[scenario](request.url));
    return {
      adapter: createGeminiProvider({ apiKey: 'AIza-test', baseURL: `${upstream.url}/v1beta` }),
      model: 'gemini-3.5-flash',
      close: () => upstream.close(),
    };
  },
});
