import { describe, expect, it } from 'vitest';
import type { AssistantContentPart } from '../../../src/canonical/index.js';
import { decodeGeminiResponse, decodeToolCallId, encodeGeminiRequest } from '../../../src/protocols/gemini/index.js';
import { jsonFixture } from '../../helpers/fixtures.js';

const options = { fallbackId: 'gemini_req_1', fallbackModel: 'gemini-3.5-flash' };

const failure = (work: () => unknown): Record<string, unknown> => {
  try {
    work();
  } catch (error) {
    return error as Record<string, unknown>;
  }
  throw new Error('expected a failure');
};

describe('decodeGeminiResponse', () => {
  it('should decode text and a signed function call, reporting tool-calls for STOP', () => {
    const response = decodeGeminiResponse(jsonFixture('gemini', 'tool-call-response'), options);
    expect(response).toMatchObject({ id: 'mKd1aPxyz', model: 'gemini-3.5-flash', finishReason: { unified: 'tool-calls', raw: 'STOP' } });
    const [text, call] = response.content;
    expect(text).toEqual({ type: 'text', text: 'Checking the weather.' });
    expect(call).toMatchObject({ type: 'tool-call', name: 'get_weather', arguments: '{"city":"Paris"}' });
    const id = call?.type === 'tool-call' ? call.id : '';
    expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(decodeToolCallId(id).signature).toBe('CiQBe/x+AAA=');
  });

  it('should count thoughts as output and reasoning, and keep the total', () => {
    expect(decodeGeminiResponse(jsonFixture('gemini', 'tool-call-response'), options).usage).toEqual({
      inputTokens: 42,
      cachedInputTokens: 0,
      outputTokens: 75,
      reasoningTokens: 57,
      totalTokens: 117,
    });
  });

  it('should decode thought summaries as reasoning and a text signature as a signature-only reasoning part after it', () => {
    const response = decodeGeminiResponse(jsonFixture('gemini', 'thinking-text-response'), options);
    expect(response.content).toEqual([
      { type: 'reasoning', text: '**Weighing the forecast**\nThe user asks about Paris.' },
      { type: 'text', text: 'Sunny over Paris — 21 °C.' },
      { type: 'reasoning', text: '', signature: 'gemini:VGV4dFNpZ25hdHVyZQ==' },
    ]);
    expect(response.usage).toEqual({ inputTokens: 30, cachedInputTokens: 12, outputTokens: 35, reasoningTokens: 25, totalTokens: 65 });
    expect(response.finishReason).toEqual({ unified: 'stop', raw: 'STOP' });
  });

  it('should replay a decoded answer with every signature back on its own part', () => {
    const response = decodeGeminiResponse(jsonFixture('gemini', 'thinking-text-response'), options);
    const call = decodeGeminiResponse(jsonFixture('gemini', 'tool-call-response'), options).content;
    const content: AssistantContentPart[] = [...response.content, ...call];
    const body = encodeGeminiRequest({
      model: 'gemini-3.5-flash',
      stream: false,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
        { role: 'assistant', content },
      ],
    });
    expect(body.contents[1]?.parts).toEqual([
      { text: '**Weighing the forecast**\nThe user asks about Paris.', thought: true },
      { text: 'Sunny over Paris — 21 °C.', thoughtSignature: 'VGV4dFNpZ25hdHVyZQ==' },
      { text: 'Checking the weather.' },
      {
        functionCall: { name: 'get_weather', args: { city: 'Paris' }, id: expect.stringMatching(/^call_/) },
        thoughtSignature: 'CiQBe/x+AAA=',
      },
    ]);
  });

  it('should mint distinct, stable ids for calls without one, and keep ids Gemini sends', () => {
    const body = {
      responseId: 'r1',
      candidates: [
        {
          content: {
            parts: [
              { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
              { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
              { functionCall: { name: 'get_time', id: 'fc-7' } },
            ],
          },
          finishReason: 'STOP',
        },
      ],
    };
    const ids = decodeGeminiResponse(body, options).content.map((part) => (part.type === 'tool-call' ? part.id : ''));
    expect(new Set(ids).size).toBe(3);
    expect(ids[2]).toBe('fc-7');
    expect(decodeGeminiResponse(body, options).content.map((part) => (part.type === 'tool-call' ? part.id : ''))).toEqual(ids);
    expect(decodeGeminiResponse(body, options).content[2]).toMatchObject({ arguments: '{}' });
  });

  it('should give namespaced functions back their name and namespace', () => {
    const body = { candidates: [{ content: { parts: [{ functionCall: { name: 'mcp_clock.now', args: {} } }] }, finishReason: 'STOP' }] };
    const tools = [{ type: 'function' as const, name: 'now', namespace: 'mcp_clock' }];
    expect(decodeGeminiResponse(body, { ...options, tools }).content[0]).toMatchObject({ name: 'now', namespace: 'mcp_clock' });
  });

  it('should report a blocked prompt as a content-filter refusal with no content, not an error', () => {
    const response = decodeGeminiResponse(jsonFixture('gemini', 'blocked-prompt-response'), options);
    expect(response).toMatchObject({ content: [], finishReason: { unified: 'content-filter', raw: 'PROHIBITED_CONTENT' } });
    expect(response.usage).toEqual({ inputTokens: 12, totalTokens: 12 });
  });

  it('should keep a candidate that finished without content, with its reason', () => {
    const body = { candidates: [{ finishReason: 'SAFETY' }], usageMetadata: { promptTokenCount: 5, totalTokenCount: 5 } };
    expect(decodeGeminiResponse(body, options)).toMatchObject({ content: [], finishReason: { unified: 'content-filter', raw: 'SAFETY' } });
    const thinkingOnly = {
      candidates: [{ finishReason: 'MAX_TOKENS' }],
      usageMetadata: { promptTokenCount: 5, thoughtsTokenCount: 100, totalTokenCount: 105 },
    };
    expect(decodeGeminiResponse(thinkingOnly, options)).toMatchObject({
      content: [],
      finishReason: { unified: 'length' },
      usage: { outputTokens: 100, reasoningTokens: 100 },
    });
  });

  it('should raise a retryable error for a malformed function call instead of an empty success', () => {
    const error = failure(() => decodeGeminiResponse(jsonFixture('gemini', 'malformed-call-response'), options));
    expect(error).toMatchObject({ kind: 'upstream', code: 'GEMINI_MALFORMED_FUNCTION_CALL', retryable: true, status: 502 });
    expect(error.message).toContain('get_weather(city=Paris');
  });

  it('should raise an error for an answer with no candidates and no reason', () => {
    expect(failure(() => decodeGeminiResponse({ usageMetadata: {} }, options))).toMatchObject({ code: 'GEMINI_EMPTY_ANSWER' });
  });

  it('should use the fallbacks when Gemini sends no responseId or modelVersion, and ignore unknown fields', () => {
    const response = decodeGeminiResponse(
      { candidates: [{ content: { parts: [{ text: 'hi', newThing: 1 }] }, finishReason: 'STOP', x: [] }] },
      options,
    );
    expect(response).toMatchObject({ id: 'gemini_req_1', model: 'gemini-3.5-flash', content: [{ type: 'text', text: 'hi' }] });
  });

  it('should refuse a body that is not a GenerateContentResponse', () => {
    expect(failure(() => decodeGeminiResponse('<html>', options))).toMatchObject({ code: 'UPSTREAM_INVALID_RESPONSE', status: 502 });
  });
});
