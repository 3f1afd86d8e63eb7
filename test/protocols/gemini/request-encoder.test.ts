import { describe, expect, it } from 'vitest';
import type { CanonicalRequest, UserContentPart } from '../../../src/canonical/index.js';
import { encodeGeminiRequest } from '../../../src/protocols/gemini/index.js';

const base = (extra: Partial<CanonicalRequest> = {}): CanonicalRequest => ({
  model: 'gemini-3.5-flash',
  stream: false,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  ...extra,
});
const withParts = (parts: UserContentPart[], model = 'gemini-3.5-flash'): CanonicalRequest =>
  base({ model, messages: [{ role: 'user', content: parts }] });

const weather = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current weather',
  parameters: { type: 'object', properties: { city: { type: ['string', 'null'] } }, required: ['city'], additionalProperties: false },
};
const time = { type: 'function' as const, name: 'get_time' };

const failure = (work: () => unknown): { status?: number; code?: string; message: string } => {
  try {
    work();
  } catch (error) {
    return error as { status?: number; code?: string; message: string };
  }
  throw new Error('expected a failure');
};

describe('encodeGeminiRequest', () => {
  it('should send a minimal request as contents only', () => {
    expect(encodeGeminiRequest(base())).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
  });

  it('should declare every function in one tools entry with its JSON Schema as parametersJsonSchema', () => {
    const body = encodeGeminiRequest(base({ tools: [weather, time] }));
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          { name: 'get_weather', description: 'Current weather', parametersJsonSchema: weather.parameters },
          { name: 'get_time' },
        ],
      },
    ]);
    expect(body.toolConfig).toBeUndefined();
  });

  it('should name namespaced functions namespace.name', () => {
    const body = encodeGeminiRequest(
      base({ tools: [{ ...time, namespace: 'mcp_clock' }], toolChoice: { type: 'tool', name: 'get_time' } }),
    );
    expect(body.tools?.[0]?.functionDeclarations[0]?.name).toBe('mcp_clock.get_time');
    expect(body.toolConfig?.functionCallingConfig).toEqual({ mode: 'ANY', allowedFunctionNames: ['mcp_clock.get_time'] });
  });

  it.each([
    [{ type: 'auto' as const }, { mode: 'AUTO' }],
    [{ type: 'none' as const }, { mode: 'NONE' }],
    [{ type: 'required' as const }, { mode: 'ANY' }],
    [
      { type: 'tool' as const, name: 'get_time' },
      { mode: 'ANY', allowedFunctionNames: ['get_time'] },
    ],
    [
      { type: 'auto' as const, allowedTools: ['get_time'] },
      { mode: 'VALIDATED', allowedFunctionNames: ['get_time'] },
    ],
    [
      { type: 'required' as const, allowedTools: ['get_weather'] },
      { mode: 'ANY', allowedFunctionNames: ['get_weather'] },
    ],
  ])('should map tool choice %j to functionCallingConfig %j', (toolChoice, config) => {
    expect(encodeGeminiRequest(base({ tools: [weather, time], toolChoice })).toolConfig).toEqual({ functionCallingConfig: config });
  });

  it("should refuse another protocol's provider-defined tool", () => {
    const error = failure(() =>
      encodeGeminiRequest(base({ tools: [{ type: 'provider-defined', protocol: 'responses', kind: 'web_search', definition: {} }] }), {
        modelLabel: 'gem',
      }),
    );
    expect(error).toMatchObject({ status: 400, code: 'UNSUPPORTED_FEATURE' });
    expect(error.message).toContain("'web_search' tool");
    expect(error.message).toContain("'gem'");
  });

  it('should put sampling, limits and stop sequences in generationConfig', () => {
    const body = encodeGeminiRequest(
      base({
        sampling: { temperature: 0.3, topP: 0.9, topK: 40, seed: 7, presencePenalty: 0.5, frequencyPenalty: 0 },
        maxOutputTokens: 512,
        stopSequences: ['END'],
      }),
    );
    expect(body.generationConfig).toEqual({
      temperature: 0.3,
      topP: 0.9,
      topK: 40,
      seed: 7,
      presencePenalty: 0.5,
      maxOutputTokens: 512,
      stopSequences: ['END'],
    });
  });

  it('should refuse a penalty on Gemini 2.5, which rejects it, but let a zero penalty pass', () => {
    expect(failure(() => encodeGeminiRequest(base({ model: 'gemini-2.5-flash', sampling: { frequencyPenalty: 1 } })))).toMatchObject({
      status: 400,
      message: expect.stringContaining('frequency penalty'),
    });
    expect(encodeGeminiRequest(base({ model: 'gemini-2.5-flash', sampling: { frequencyPenalty: 0 } })).generationConfig).toBeUndefined();
  });

  it('should ask for JSON, with the schema as responseJsonSchema and const rewritten to a one-value enum', () => {
    expect(encodeGeminiRequest(base({ responseFormat: { type: 'json' } })).generationConfig).toEqual({
      responseMimeType: 'application/json',
    });
    const schema = { type: 'object', properties: { kind: { const: 'weather' }, list: { type: 'array', items: [{ const: 1 }] } } };
    expect(encodeGeminiRequest(base({ responseFormat: { type: 'json-schema', name: 'w', schema } })).generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object', properties: { kind: { enum: ['weather'] }, list: { type: 'array', items: [{ enum: [1] }] } } },
    });
    expect(encodeGeminiRequest(base({ responseFormat: { type: 'text' } })).generationConfig).toBeUndefined();
  });

  it('should send base64 images as inlineData without a data: prefix', () => {
    const body = encodeGeminiRequest(
      withParts([
        { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBOR' } },
        { type: 'image', source: { kind: 'url', url: 'data:image/jpeg;base64,/9j/4A' } },
      ]),
    );
    expect(body.contents[0]?.parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: 'iVBOR' } },
      { inlineData: { mimeType: 'image/jpeg', data: '/9j/4A' } },
    ]);
  });

  it('should send a public https image or PDF URL as fileData with its media type', () => {
    const body = encodeGeminiRequest(
      withParts([
        { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.PNG?size=2' } },
        { type: 'file', source: { kind: 'url', url: 'https://example.com/report.pdf' }, filename: 'report.pdf' },
      ]),
    );
    expect(body.contents[0]?.parts).toEqual([
      { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/cat.PNG?size=2' } },
      { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/report.pdf' } },
    ]);
  });

  it.each([
    ['http://example.com/cat.png', 'image URLs other than public https://'],
    ['https://example.com/image', 'image URLs other than public https://'],
  ])('should refuse the image URL %s with a 400 that explains the limitation', (url, expected) => {
    const error = failure(() => encodeGeminiRequest(withParts([{ type: 'image', source: { kind: 'url', url } }])));
    expect(error).toMatchObject({ status: 400, code: 'UNSUPPORTED_FEATURE' });
    expect(error.message).toContain(expected);
    expect(error.message).toContain('base64');
  });

  it('should refuse a file id, which only the provider that issued it understands', () => {
    const error = failure(() => encodeGeminiRequest(withParts([{ type: 'file', source: { kind: 'file-id', fileId: 'file-abc' } }])));
    expect(error.message).toContain("file given by file id ('file-abc')");
  });

  it('should send PDFs and audio as inlineData and plain-text documents as text', () => {
    const body = encodeGeminiRequest(
      withParts([
        { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBER' } },
        { type: 'audio', data: 'UklGR', format: 'wav' },
        { type: 'file', source: { kind: 'text', mediaType: 'text/plain', text: 'notes' } },
      ]),
    );
    expect(body.contents[0]?.parts).toEqual([
      { inlineData: { mimeType: 'application/pdf', data: 'JVBER' } },
      { inlineData: { mimeType: 'audio/wav', data: 'UklGR' } },
      { text: 'notes' },
    ]);
  });
});
