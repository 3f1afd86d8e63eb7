import { describe, expect, it } from 'vitest';
import type { CanonicalMessage, CanonicalRequest } from '../../../src/canonical/index.js';
import { GatewayError } from '../../../src/canonical/index.js';
import {
  SKIP_SIGNATURE_VALIDATOR,
  encodeGeminiRequest,
  encodeReasoningSignature,
  encodeToolCallId,
} from '../../../src/protocols/gemini/index.js';

const request = (messages: CanonicalMessage[], extra: Partial<CanonicalRequest> = {}): CanonicalRequest => ({
  model: 'gemini-3.5-flash',
  stream: false,
  messages,
  ...extra,
});
const user = (text: string): CanonicalMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const call = (id: string, name: string, args: string) => ({ type: 'tool-call' as const, id, name, arguments: args });
const result = (toolCallId: string, text: string, isError?: boolean) => ({
  type: 'tool-result' as const,
  toolCallId,
  content: [{ type: 'text' as const, text }],
  ...(isError === undefined ? {} : { isError }),
});

describe('encodeGeminiRequest: contents', () => {
  it('should send system text as systemInstruction and map roles to user/model', () => {
    const body = encodeGeminiRequest(
      request([user('Hi'), { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] }, user('Weather?')], {
        system: [{ type: 'text', text: 'You are a weather bot.' }],
      }),
    );
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'You are a weather bot.' }] });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Hi' }] },
      { role: 'model', parts: [{ text: 'Hello!' }] },
      { role: 'user', parts: [{ text: 'Weather?' }] },
    ]);
  });

  it('should hoist system messages found inside the conversation after the system prompt', () => {
    const body = encodeGeminiRequest(
      request([user('a'), { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] }, user('b')], {
        system: [{ type: 'text', text: 'First.' }],
      }),
    );
    expect(body.systemInstruction?.parts).toEqual([{ text: 'First.' }, { text: 'Be brief.' }]);
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'a' }, { text: 'b' }] }]);
  });

  it('should put a Gemma model system text in front of the first user turn', () => {
    const body = encodeGeminiRequest(request([user('Hi')], { model: 'gemma-3-27b-it', system: [{ type: 'text', text: 'Sys' }] }));
    expect(body.systemInstruction).toBeUndefined();
    expect(body.contents[0]).toEqual({ role: 'user', parts: [{ text: 'Sys' }, { text: 'Hi' }] });
  });

  it('should drop empty text parts and the turns they leave empty', () => {
    const body = encodeGeminiRequest(
      request([
        user('Weather?'),
        { role: 'assistant', content: [{ type: 'text', text: '' }, call('c1', 'get_weather', '{"city":"Paris"}')] },
        { role: 'tool', content: [result('c1', 'sunny')] },
        { role: 'assistant', content: [{ type: 'text', text: '' }] },
      ]),
    );
    expect(body.contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    expect(body.contents[1]?.parts.some((part) => part.text === '')).toBe(false);
  });

  it('should send parallel results as one user turn, in call order, named after their calls, before any user text', () => {
    const body = encodeGeminiRequest(
      request([
        user('Weather and time?'),
        { role: 'assistant', content: [call('c1', 'get_weather', '{"city":"Paris"}'), call('c2', 'get_time', '')] },
        { role: 'tool', content: [result('c2', '12:00')] },
        { role: 'tool', content: [result('c1', 'rain', true)] },
        user('Thanks, and tomorrow?'),
      ]),
    );
    expect(body.contents).toHaveLength(3);
    expect(body.contents[1]?.parts.map((part) => part.functionCall)).toEqual([
      { name: 'get_weather', args: { city: 'Paris' }, id: 'c1' },
      { name: 'get_time', args: {}, id: 'c2' },
    ]);
    expect(body.contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'get_weather', id: 'c1', response: { error: 'rain' } } },
        { functionResponse: { name: 'get_time', id: 'c2', response: { output: '12:00' } } },
        { text: 'Thanks, and tomorrow?' },
      ],
    });
  });

  it('should wrap arguments that are not a JSON object instead of sending a string', () => {
    const body = encodeGeminiRequest(
      request([user('x'), { role: 'assistant', content: [call('c1', 'f', '{"broken'), call('c2', 'g', '[1,2]')] }]),
    );
    expect(body.contents[1]?.parts.map((part) => part.functionCall?.args)).toEqual([{ _raw: '{"broken' }, { _raw: '[1,2]' }]);
  });

  it('should turn a result whose call is not in the conversation into user text', () => {
    const body = encodeGeminiRequest(request([user('x'), { role: 'tool', content: [result('gone', 'old result')] }]));
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'x' }, { text: "Result of tool call 'gone':\nold result" }] }]);
  });

  it('should carry images of a tool result in functionResponse.parts', () => {
    const body = encodeGeminiRequest(
      request([
        user('x'),
        { role: 'assistant', content: [call('c1', 'screenshot', '{}')] },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              content: [
                { type: 'text', text: 'done' },
                { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } },
              ],
            },
          ],
        },
      ]),
    );
    expect(body.contents[2]?.parts[0]).toEqual({
      functionResponse: {
        name: 'screenshot',
        id: 'c1',
        response: { output: 'done' },
        parts: [{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }],
      },
    });
  });

  it('should replay each signature on the part it came with: calls from their ids, thoughts and text from reasoning parts', () => {
    const signedId = encodeToolCallId('call_x', 'CiQBe/x+AAA=');
    const body = encodeGeminiRequest(
      request([
        user('Weather?'),
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Thinking…', signature: encodeReasoningSignature('T1==') },
            { type: 'text', text: 'Checking.' },
            { type: 'reasoning', text: '', signature: encodeReasoningSignature('U2ln') },
            call(signedId, 'get_weather', '{"city":"Paris"}'),
            call('call_y', 'get_time', '{}'),
          ],
        },
        { role: 'tool', content: [result(signedId, 'sunny'), result('call_y', 'noon')] },
      ]),
    );
    expect(body.contents[1]?.parts).toEqual([
      { text: 'Thinking…', thought: true, thoughtSignature: 'T1==' },
      { text: 'Checking.', thoughtSignature: 'U2ln' },
      { functionCall: { name: 'get_weather', args: { city: 'Paris' }, id: 'call_x' }, thoughtSignature: 'CiQBe/x+AAA=' },
      { functionCall: { name: 'get_time', args: {}, id: 'call_y' } },
    ]);
    expect(body.contents[2]?.parts[0]?.functionResponse).toMatchObject({ name: 'get_weather', id: 'call_x' });
  });

  it("should drop other vendors' signatures and redacted thinking, keeping reasoning text as a thought", () => {
    const body = encodeGeminiRequest(
      request([
        user('x'),
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Claude thought', signature: 'EqQBCkgIARAB' },
            { type: 'reasoning', text: '', redactedData: 'opaque' },
            { type: 'text', text: 'Answer' },
          ],
        },
      ]),
    );
    expect(body.contents[1]?.parts).toEqual([{ text: 'Claude thought', thought: true }, { text: 'Answer' }]);
  });

  it('should give the first call of an unsigned step in the current tool loop the skip-validator signature', () => {
    const body = encodeGeminiRequest(
      request([
        user('old question'),
        { role: 'assistant', content: [call('toolu_old', 'f', '{}')] },
        { role: 'tool', content: [result('toolu_old', 'r0')] },
        user('new question'),
        { role: 'assistant', content: [call('toolu_1', 'f', '{}'), call('toolu_2', 'g', '{}')] },
        { role: 'tool', content: [result('toolu_1', 'r1'), result('toolu_2', 'r2')] },
      ]),
    );
    expect(body.contents[1]?.parts[0]?.thoughtSignature).toBeUndefined();
    expect(body.contents[3]?.parts.map((part) => part.thoughtSignature)).toEqual([SKIP_SIGNATURE_VALIDATOR, undefined]);
  });

  it('should refuse provider-defined content with a 400 naming it and the model', () => {
    let caught: unknown;
    try {
      encodeGeminiRequest(
        request([{ role: 'user', content: [{ type: 'provider-defined', protocol: 'messages', kind: 'search_result', data: {} }] }]),
        { modelLabel: 'my-gemini' },
      );
    } catch (error) {
      caught = error;
    }
    expect(GatewayError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ status: 400, code: 'UNSUPPORTED_FEATURE' });
    expect((caught as Error).message).toContain("'search_result' content");
    expect((caught as Error).message).toContain("'my-gemini'");
  });
});
