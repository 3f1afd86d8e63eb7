import { describe, expect, it } from 'vitest';
import type { CanonicalStreamEvent } from '../../../src/canonical/index.js';
import { createGeminiStreamDecoder, decodeToolCallId } from '../../../src/protocols/gemini/index.js';
import { checkStreamEvents } from '../../../src/testing/index.js';
import { chunkLinesFixture } from '../../helpers/fixtures.js';

const options = { fallbackId: 'gemini_req_1', fallbackModel: 'gemini-3.5-flash' };

function decodeAll(chunks: readonly string[]): CanonicalStreamEvent[] {
  const decoder = createGeminiStreamDecoder(options);
  return [...chunks.flatMap((data) => decoder.decode({ data })), ...decoder.end()];
}

const chunk = (parts: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }], responseId: 'r', modelVersion: 'm' });

describe('createGeminiStreamDecoder', () => {
  it('should decode the thought, text and two whole calls of the verified transcript, with tool-calls at the end', () => {
    const events = decodeAll(chunkLinesFixture('gemini', 'stream-tool-call'));
    expect(checkStreamEvents(events)).toEqual([]);
    expect(events.map((event) => event.type)).toEqual([
      'start',
      'reasoning-start',
      'reasoning-delta',
      'reasoning-end',
      'text-start',
      'text-delta',
      'text-end',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-end',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-end',
      'finish',
    ]);
    expect(events[0]).toEqual({ type: 'start', id: 'resp-abc', model: 'gemini-3.5-flash', usage: { inputTokens: 42 } });
    const starts = events.filter((event) => event.type === 'tool-call-start');
    expect(starts.map((event) => event.name)).toEqual(['get_weather', 'get_time']);
    expect(decodeToolCallId(starts[0]!.toolCallId).signature).toBe('Q2lRQ0FRLi4u');
    expect(decodeToolCallId(starts[1]!.toolCallId).signature).toBeUndefined();
    expect(starts[0]!.toolCallId).not.toBe(starts[1]!.toolCallId);
    expect(events.filter((event) => event.type === 'tool-call-delta').map((event) => event.delta)).toEqual(['{"city":"Paris"}', '{}']);
    expect(events.at(-1)).toEqual({
      type: 'finish',
      finishReason: { unified: 'tool-calls', raw: 'STOP' },
      usage: { inputTokens: 42, cachedInputTokens: 0, outputTokens: 75, reasoningTokens: 57, totalTokens: 117 },
    });
  });

  it('should extend one block per kind across chunks and end with the text signature as its own reasoning block', () => {
    const events = decodeAll(chunkLinesFixture('gemini', 'stream-text'));
    expect(checkStreamEvents(events)).toEqual([]);
    const reasoning = events.filter((event) => event.type === 'reasoning-delta').map((event) => event.delta);
    expect(reasoning).toEqual(['Let me think about ', 'Paris weather.']);
    const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join('');
    expect(text).toBe('Sunny over Paris — 21 °C ☀️');
    expect(events.filter((event) => event.type === 'text-start')).toHaveLength(1);
    expect(events.at(-2)).toMatchObject({ type: 'reasoning-end', signature: 'gemini:VGV4dFNpZ25hdHVyZQ==' });
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'stop' },
      usage: { inputTokens: 20, cachedInputTokens: 8, outputTokens: 21, reasoningTokens: 12, totalTokens: 41 },
    });
  });

  it('should emit events as chunks arrive, finishing only at the end of the stream', () => {
    const decoder = createGeminiStreamDecoder(options);
    expect(decoder.decode({ data: chunk([{ text: 'Hel' }]) }).map((event) => event.type)).toEqual(['start', 'text-start', 'text-delta']);
    expect(decoder.decode({ data: chunk([{ text: 'lo' }], { finishReason: 'STOP' }) })).toEqual([
      { type: 'text-delta', id: 'b0', delta: 'lo' },
    ]);
    expect(decoder.end().map((event) => event.type)).toEqual(['text-end', 'finish']);
  });

  it('should open no block for an empty thought, and end an open thought with a signature that comes later', () => {
    const events = decodeAll([
      chunk([{ text: '', thought: true }]),
      chunk([{ text: 'Hmm.', thought: true }]),
      chunk([{ text: '', thought: true, thoughtSignature: 'U2ln' }], { finishReason: 'STOP' }),
    ]);
    expect(checkStreamEvents(events)).toEqual([]);
    expect(events.slice(1, -1)).toEqual([
      { type: 'reasoning-start', id: 'b0' },
      { type: 'reasoning-delta', id: 'b0', delta: 'Hmm.' },
      { type: 'reasoning-end', id: 'b0', signature: 'gemini:U2ln' },
    ]);
  });

  it('should report tool-calls when the calls and a later STOP chunk come apart', () => {
    const events = decodeAll([chunk([{ functionCall: { name: 'f', args: { a: 1 } } }]), chunk([{ text: '' }], { finishReason: 'STOP' })]);
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'tool-calls' } });
  });

  it('should turn an in-band error frame into an error event and ignore what follows', () => {
    const decoder = createGeminiStreamDecoder(options);
    decoder.decode({ data: chunk([{ text: 'partial' }]) });
    const events = decoder.decode({
      data: JSON.stringify({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }),
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'error',
      error: { kind: 'overloaded', status: 503, retryable: true, message: 'The model is overloaded.' },
    });
    expect(decoder.decode({ data: chunk([{ text: 'more' }]) })).toEqual([]);
    expect(decoder.end()).toEqual([]);
  });

  it('should end with an error, not a finish, when the connection closes without a finish reason', () => {
    const events = decodeAll([chunk([{ text: 'cut' }])]);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'STREAM_ENDED_EARLY', retryable: true } });
    expect(decodeAll([])).toMatchObject([{ type: 'error' }]);
  });

  it('should end with an error for a malformed function call', () => {
    const events = decodeAll([chunk([], { finishReason: 'MALFORMED_FUNCTION_CALL' })]);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'GEMINI_MALFORMED_FUNCTION_CALL' } });
  });

  it('should finish a blocked prompt as a content-filter refusal', () => {
    const blocked = JSON.stringify({
      promptFeedback: { blockReason: 'SAFETY' },
      usageMetadata: { promptTokenCount: 3, totalTokenCount: 3 },
    });
    expect(decodeAll([blocked]).map((event) => event.type)).toEqual(['start', 'finish']);
    expect(decodeAll([blocked]).at(-1)).toMatchObject({ finishReason: { unified: 'content-filter', raw: 'SAFETY' } });
  });

  it('should report a frame that is not JSON as an error', () => {
    expect(decodeAll(['{not json'])[0]).toMatchObject({ type: 'error', error: { code: 'UPSTREAM_INVALID_RESPONSE' } });
  });
});
