import { describe, expect, it } from 'vitest';
import { GatewayError, type CanonicalRequest, type CanonicalStreamEvent } from '../../../src/canonical/index.js';
import { createChatStreamEncoder } from '../../../src/protocols/chat-completions/stream-encoder.js';
import { createTestContext } from './context.js';

function encodeAll(events: CanonicalStreamEvent[], request: Partial<CanonicalRequest> = {}): string[] {
  const encoder = createChatStreamEncoder(createTestContext({ stream: true, ...request }));
  return events.map((event) => encoder.encode(event));
}

/** The JSON payloads of all `data:` frames ('[DONE]' kept as a string). */
function payloads(texts: string[]): unknown[] {
  return texts
    .join('')
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => {
      expect(frame.startsWith('data: ')).toBe(true);
      const data = frame.slice('data: '.length);
      return data === '[DONE]' ? data : JSON.parse(data);
    });
}

const start: CanonicalStreamEvent = { type: 'start', id: 'msg_01', model: 'claude' };
const finish = (unified: 'stop' | 'length' | 'tool-calls' = 'stop'): CanonicalStreamEvent => ({
  type: 'finish',
  finishReason: { unified },
  usage: { inputTokens: 9, outputTokens: 3, totalTokens: 12, cachedInputTokens: 0, reasoningTokens: 0 },
});
const text: CanonicalStreamEvent[] = [
  start,
  { type: 'text-start', id: 't0' },
  { type: 'text-delta', id: 't0', delta: 'Hel' },
  { type: 'text-delta', id: 't0', delta: 'lo!' },
  { type: 'text-end', id: 't0' },
  finish(),
];
const base = { id: 'chatcmpl-abc123', object: 'chat.completion.chunk', created: 1730000000, model: 'gpt-test' };
const choice = (delta: object, finishReason: string | null = null) => ({
  index: 0,
  delta,
  logprobs: null,
  finish_reason: finishReason,
});

describe('createChatStreamEncoder', () => {
  it('should write the plain-text transcript with a usage chunk when includeUsage is set', () => {
    const texts = encodeAll(text, { includeUsage: true });
    expect(texts.join('')).toBe(
      `${[
        { ...base, choices: [choice({ role: 'assistant', content: '', refusal: null })], usage: null },
        { ...base, choices: [choice({ content: 'Hel' })], usage: null },
        { ...base, choices: [choice({ content: 'lo!' })], usage: null },
        { ...base, choices: [choice({}, 'stop')], usage: null },
        {
          ...base,
          choices: [],
          usage: {
            prompt_tokens: 9,
            completion_tokens: 3,
            total_tokens: 12,
            prompt_tokens_details: { cached_tokens: 0 },
            completion_tokens_details: { reasoning_tokens: 0 },
          },
        },
      ]
        .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
        .join('')}data: [DONE]\n\n`,
    );
    expect(texts.map((part) => part === '')).toEqual([true, false, false, false, true, false]);
  });

  it('should send no usage field at all without includeUsage', () => {
    const frames = payloads(encodeAll(text));
    expect(frames.at(-1)).toBe('[DONE]');
    expect(frames.slice(0, -1).every((frame) => typeof frame === 'object' && frame !== null && !('usage' in frame))).toBe(true);
    expect(frames.at(-2)).toEqual({ ...base, choices: [choice({}, 'stop')] });
  });

  it('should stream parallel tool calls with their ordinal index, and {} for a call without arguments', () => {
    const frames = payloads(
      encodeAll([
        start,
        { type: 'text-start', id: 'b0' },
        { type: 'text-delta', id: 'b0', delta: 'Checking.' },
        { type: 'text-end', id: 'b0' },
        { type: 'tool-call-start', id: 'b1', toolCallId: 'toolu_1', name: 'get_weather' },
        { type: 'tool-call-delta', id: 'b1', delta: '{"ci' },
        { type: 'tool-call-delta', id: 'b1', delta: 'ty":"Paris"}' },
        { type: 'tool-call-end', id: 'b1' },
        { type: 'tool-call-start', id: 'b2', toolCallId: 'toolu_2', name: 'get_time' },
        { type: 'tool-call-end', id: 'b2' },
        finish('stop'),
      ]),
    );
    expect(frames.slice(1, -1)).toEqual([
      { ...base, choices: [choice({ content: 'Checking.' })] },
      {
        ...base,
        choices: [
          choice({ tool_calls: [{ index: 0, id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
        ],
      },
      { ...base, choices: [choice({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] })] },
      { ...base, choices: [choice({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] })] },
      {
        ...base,
        choices: [choice({ tool_calls: [{ index: 1, id: 'toolu_2', type: 'function', function: { name: 'get_time', arguments: '' } }] })],
      },
      { ...base, choices: [choice({ tool_calls: [{ index: 1, function: { arguments: '{}' } }] })] },
      { ...base, choices: [choice({}, 'tool_calls')] },
    ]);
  });

  it('should open a stream that starts with a tool call with content null', () => {
    const frames = payloads(
      encodeAll([start, { type: 'tool-call-start', id: 'b', toolCallId: 'c', name: 'f' }, { type: 'tool-call-end', id: 'b' }, finish()]),
    );
    expect(frames[0]).toEqual({ ...base, choices: [choice({ role: 'assistant', content: null, refusal: null })] });
  });

  it('should stream a refusal as delta.refusal after a role chunk with content null', () => {
    const frames = payloads(
      encodeAll([
        start,
        { type: 'refusal-start', id: 'r' },
        { type: 'refusal-delta', id: 'r', delta: "I'm sorry, " },
        { type: 'refusal-delta', id: 'r', delta: '' },
        { type: 'refusal-delta', id: 'r', delta: 'no.' },
        { type: 'refusal-end', id: 'r' },
        finish(),
      ]),
    );
    expect(frames).toEqual([
      { ...base, choices: [choice({ role: 'assistant', content: null, refusal: null })] },
      { ...base, choices: [choice({ refusal: "I'm sorry, " })] },
      { ...base, choices: [choice({ refusal: 'no.' })] },
      { ...base, choices: [choice({}, 'stop')] },
      '[DONE]',
    ]);
  });

  it('should keep text in content and a refusal after it in refusal', () => {
    const frames = payloads(
      encodeAll([
        start,
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Partly.' },
        { type: 'text-end', id: 't' },
        { type: 'refusal-start', id: 'r' },
        { type: 'refusal-delta', id: 'r', delta: 'Not the rest.' },
        { type: 'refusal-end', id: 'r' },
        finish(),
      ]),
    );
    expect(frames.slice(0, 3)).toEqual([
      { ...base, choices: [choice({ role: 'assistant', content: '', refusal: null })] },
      { ...base, choices: [choice({ content: 'Partly.' })] },
      { ...base, choices: [choice({ refusal: 'Not the rest.' })] },
    ]);
  });

  it('should stream reasoning as reasoning_content and repeat a signed block in thinking_blocks', () => {
    const frames = payloads(
      encodeAll([
        start,
        { type: 'reasoning-start', id: 'r0' },
        { type: 'reasoning-delta', id: 'r0', delta: 'Let me ' },
        { type: 'reasoning-delta', id: 'r0', delta: 'think.' },
        { type: 'reasoning-end', id: 'r0', signature: 'sig-1' },
        { type: 'reasoning-start', id: 'r1', redactedData: 'opaque' },
        { type: 'reasoning-end', id: 'r1' },
        { type: 'reasoning-start', id: 'r2' },
        { type: 'reasoning-delta', id: 'r2', delta: 'plain' },
        { type: 'reasoning-end', id: 'r2' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Hi' },
        { type: 'text-end', id: 't' },
        finish(),
      ]),
    );
    expect(frames.slice(1, -2)).toEqual([
      { ...base, choices: [choice({ reasoning_content: 'Let me ' })] },
      { ...base, choices: [choice({ reasoning_content: 'think.' })] },
      { ...base, choices: [choice({ thinking_blocks: [{ type: 'thinking', thinking: 'Let me think.', signature: 'sig-1' }] })] },
      { ...base, choices: [choice({ thinking_blocks: [{ type: 'redacted_thinking', data: 'opaque' }] })] },
      { ...base, choices: [choice({ reasoning_content: 'plain' })] },
      { ...base, choices: [choice({ content: 'Hi' })] },
    ]);
  });

  it('should report length for a truncated answer', () => {
    const frames = payloads(
      encodeAll([start, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Lon' }, finish('length')]),
    );
    expect(frames.at(-2)).toEqual({ ...base, choices: [choice({}, 'length')] });
  });

  it('should keep a chatcmpl- id from the provider on every chunk', () => {
    const frames = payloads(encodeAll([{ ...start, id: 'chatcmpl-up' }, ...text.slice(1)]));
    const ids = frames.filter((frame) => frame !== '[DONE]').map((frame) => (frame as { id: string }).id);
    expect(new Set(ids)).toEqual(new Set(['chatcmpl-up']));
  });

  it('should write each chunk byte for byte as JSON.stringify would, escapes included', () => {
    const model = 'tenant/"quoted" model \u2028 é';
    const texts = encodeAll([{ ...start, id: 'chatcmpl-"odd"\\id' }, ...text.slice(1)], { model });
    const frames = texts
      .join('')
      .split('\n\n')
      .filter((frame) => frame !== '' && frame !== 'data: [DONE]');
    expect(frames).toHaveLength(4); // role, two deltas, finish
    for (const frame of frames) {
      const data = frame.slice('data: '.length);
      const chunk = JSON.parse(data) as { id: string; model: string };
      expect(chunk.model).toBe(model);
      expect(chunk.id).toBe('chatcmpl-"odd"\\id');
      expect(data).toBe(JSON.stringify(chunk));
    }
  });

  it('should send an in-band error and nothing after it', () => {
    const error = new GatewayError({ kind: 'upstream', code: 'UPSTREAM_ERROR', message: 'The provider failed.' });
    const texts = encodeAll([
      start,
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hi' },
      { type: 'error', error },
      finish(),
    ]);
    expect(texts[3]).toBe(
      'data: {"error":{"message":"The provider failed.","type":"server_error","param":null,"code":"upstream_error"}}\n\n',
    );
    expect(texts[4]).toBe('');
  });

  it('should answer a deprecated functions request with one function_call and finish reason function_call', () => {
    const frames = payloads(
      encodeAll(
        [
          start,
          { type: 'tool-call-start', id: 'b1', toolCallId: 'c1', name: 'get_weather' },
          { type: 'tool-call-delta', id: 'b1', delta: '{"city":"Oslo"}' },
          { type: 'tool-call-end', id: 'b1' },
          { type: 'tool-call-start', id: 'b2', toolCallId: 'c2', name: 'get_time' },
          { type: 'tool-call-end', id: 'b2' },
          finish(),
        ],
        { tools: [{ type: 'function', name: 'get_weather', extensions: { chat: { source: 'functions' } } }] },
      ),
    );
    expect(frames.slice(1, -1)).toEqual([
      { ...base, choices: [choice({ function_call: { name: 'get_weather', arguments: '' } })] },
      { ...base, choices: [choice({ function_call: { arguments: '{"city":"Oslo"}' } })] },
      { ...base, choices: [choice({}, 'function_call')] },
    ]);
  });
});

describe('createChatStreamEncoder, an upstream that reported no usage', () => {
  it('should send no usage chunk, rather than one of 0 tokens, when the caller asked for usage', () => {
    const events: CanonicalStreamEvent[] = [...text.slice(0, -1), { type: 'finish', finishReason: { unified: 'stop' }, usage: {} }];
    const frames = payloads(encodeAll(events, { includeUsage: true }));
    expect(frames.at(-1)).toBe('[DONE]');
    expect(frames.some((frame) => typeof frame === 'object' && frame !== null && (frame as { usage?: unknown }).usage != null)).toBe(false);
  });
});
