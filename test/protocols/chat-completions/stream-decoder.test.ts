import { describe, expect, it } from 'vitest';
import type { CanonicalStreamEvent } from '../../../src/canonical/index.js';
import { createChatStreamDecoder } from '../../../src/protocols/chat-completions/index.js';
import { checkStreamEvents } from '../../../src/testing/check-stream-events.js';
import { decodeMessages } from './decode-messages.js';
import { sseMessagesFixture } from '../../helpers/fixtures.js';

const text = (events: CanonicalStreamEvent[]) => events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join('');
const reasoning = (events: CanonicalStreamEvent[]) =>
  events.flatMap((event) => (event.type === 'reasoning-delta' ? [event.delta] : [])).join('');
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  data: JSON.stringify({ id: 'chatcmpl-t', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] }),
});

describe('createChatStreamDecoder', () => {
  describe('text', () => {
    it('should decode the OpenAI text transcript into start, one text block and a finish with usage', () => {
      const events = decodeMessages(sseMessagesFixture('chat-completions', 'upstream-text'));
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events[0]).toEqual({ type: 'start', id: 'chatcmpl-1', model: 'gpt-4o-2024-08-06' });
      expect(text(events)).toBe('Héllo wörld 🌍!');
      expect(events.at(-1)).toEqual({
        type: 'finish',
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { inputTokens: 9, outputTokens: 3, totalTokens: 12, cachedInputTokens: 4, reasoningTokens: 0 },
      });
    });

    it('should emit each text delta as soon as its chunk arrives', () => {
      const decoder = createChatStreamDecoder();
      const [role, first] = sseMessagesFixture('chat-completions', 'upstream-text');
      expect(decoder.decode(role!)).toEqual([{ type: 'start', id: 'chatcmpl-1', model: 'gpt-4o-2024-08-06' }]);
      expect(decoder.decode(first!)).toEqual([
        { type: 'text-start', id: 'b0' },
        { type: 'text-delta', id: 'b0', delta: 'Héllo' },
      ]);
    });

    it('should take the id and model from the first chunk that has them (Azure prompt-filter chunk first)', () => {
      const events = decodeMessages(sseMessagesFixture('chat-completions', 'upstream-azure'));
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events[0]).toEqual({ type: 'start', id: 'chatcmpl-az1', model: 'gpt-4o-2024-11-20' });
      expect(text(events)).toBe('Bonjour');
      expect(events.at(-1)).toMatchObject({ usage: { inputTokens: 8, outputTokens: 2 } });
    });

    it('should read usage from x_groq when the chunk has no usage', () => {
      const events = decodeMessages(sseMessagesFixture('chat-completions', 'upstream-groq'));
      expect(events.at(-1)).toMatchObject({ type: 'finish', usage: { inputTokens: 11, outputTokens: 2, totalTokens: 13 } });
    });

    it('should report unknown usage as an empty object, never as zeros', () => {
      const events = decodeMessages([chunk({ content: 'x' }), chunk({}, 'stop'), { data: '[DONE]' }]);
      expect(events.at(-1)).toEqual({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: {} });
    });
  });

  describe('reasoning', () => {
    it('should decode vLLM `reasoning` deltas as a reasoning block before the text', () => {
      const events = decodeMessages(sseMessagesFixture('chat-completions', 'upstream-vllm-reasoning'));
      expect(checkStreamEvents(events)).toEqual([]);
      expect(reasoning(events)).toBe('The user wants a greeting.');
      expect(text(events)).toBe('Hi there!');
      const types = events.map((event) => event.type);
      expect(types.indexOf('reasoning-end')).toBeLessThan(types.indexOf('text-start'));
    });

    it('should decode DeepSeek `reasoning_content` and keep it out of the text', () => {
      const events = decodeMessages(sseMessagesFixture('chat-completions', 'upstream-deepseek-reasoning'));
      expect(reasoning(events)).toBe('Two plus two');
      expect(text(events)).toBe('4');
      expect(events.at(-1)).toMatchObject({ usage: { reasoningTokens: 15, cachedInputTokens: 0 } });
    });

    it('should decode Mistral thinking content parts as reasoning', () => {
      const events = decodeMessages([
        chunk({ role: 'assistant', content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Hmm.' }] }] }),
        chunk({ content: [{ type: 'text', text: 'Done.' }] }, 'stop'),
        { data: '[DONE]' },
      ]);
      expect(reasoning(events)).toBe('Hmm.');
      expect(text(events)).toBe('Done.');
    });

    it('should close a reasoning block with the signature of a LiteLLM thinking block', () => {
      const events = decodeMessages([
        chunk({ reasoning_content: 'Think.' }),
        chunk({ thinking_blocks: [{ type: 'thinking', thinking: 'Think.', signature: 'sig-1' }] }),
        chunk({ content: 'Answer.' }, 'stop'),
        { data: '[DONE]' },
      ]);
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events).toContainEqual({ type: 'reasoning-end', id: 'b0', signature: 'sig-1' });
    });
  });

  describe('refusals', () => {
    it('should decode OpenAI `delta.refusal` fragments into a refusal block, not text', () => {
      const events = decodeMessages([
        chunk({ role: 'assistant', content: null, refusal: '' }),
        chunk({ refusal: "I'm sorry, " }),
        chunk({ refusal: 'I cannot help with that.' }),
        chunk({}, 'stop'),
        { data: '[DONE]' },
      ]);
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events).toEqual([
        { type: 'start', id: 'chatcmpl-t', model: 'm' },
        { type: 'refusal-start', id: 'b0' },
        { type: 'refusal-delta', id: 'b0', delta: "I'm sorry, " },
        { type: 'refusal-delta', id: 'b0', delta: 'I cannot help with that.' },
        { type: 'refusal-end', id: 'b0' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: {} },
      ]);
    });

    it('should keep text and refusal fragments in the order they came, each in its own block', () => {
      const events = decodeMessages([
        chunk({ role: 'assistant', content: 'Part one. ' }),
        chunk({ refusal: 'Not that.' }),
        chunk({ content: 'Part two.' }, 'stop'),
        { data: '[DONE]' },
      ]);
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events.slice(1, -1)).toEqual([
        { type: 'text-start', id: 'b0' },
        { type: 'text-delta', id: 'b0', delta: 'Part one. ' },
        { type: 'text-end', id: 'b0' },
        { type: 'refusal-start', id: 'b1' },
        { type: 'refusal-delta', id: 'b1', delta: 'Not that.' },
        { type: 'refusal-end', id: 'b1' },
        { type: 'text-start', id: 'b2' },
        { type: 'text-delta', id: 'b2', delta: 'Part two.' },
        { type: 'text-end', id: 'b2' },
      ]);
    });
  });

  describe('tool calls', () => {
    it('should stream a tool call as start, partial JSON deltas and end', () => {
      const events = decodeMessages(sseMessagesFixture('chat-completions', 'upstream-tool-call'));
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events.filter((event) => event.type.startsWith('tool-call'))).toEqual([
        { type: 'tool-call-start', id: 'b0', toolCallId: 'call_abc', name: 'get_weather' },
        { type: 'tool-call-delta', id: 'b0', delta: '{"ci' },
        { type: 'tool-call-delta', id: 'b0', delta: 'ty":"Paris"}' },
        { type: 'tool-call-end', id: 'b0' },
      ]);
      expect(events.at(-1)).toMatchObject({ finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: { inputTokens: 40 } });
    });

    it('should give parallel calls their own blocks in order, after the text', () => {
      const events = decodeMessages(sseMessagesFixture('chat-completions', 'upstream-parallel-tools'));
      expect(checkStreamEvents(events)).toEqual([]);
      const starts = events.filter((event) => event.type === 'tool-call-start');
      expect(starts.map((event) => event.toolCallId)).toEqual(['call_paris', 'call_rome']);
      expect(text(events)).toBe('Checking both.');
    });

    it('should report tool-calls when a server says stop after a call (Ollama)', () => {
      const events = decodeMessages(sseMessagesFixture('chat-completions', 'upstream-ollama-tool'));
      expect(checkStreamEvents(events)).toEqual([]);
      expect(reasoning(events)).toBe('Need weather.');
      expect(events).toContainEqual({ type: 'tool-call-delta', id: 'b1', delta: '{"city":"Paris"}' });
      expect(events.at(-1)).toMatchObject({ finishReason: { unified: 'tool-calls', raw: 'stop' } });
    });

    it('should keep the first name when later fragments carry an empty one (LM Studio)', () => {
      const events = decodeMessages(sseMessagesFixture('chat-completions', 'upstream-lm-studio-tool'));
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events.filter((event) => event.type === 'tool-call-start')).toEqual([
        { type: 'tool-call-start', id: 'b0', toolCallId: '365174485', name: 'get_weather' },
      ]);
    });

    it('should hold argument text that arrives before the name and send it with the start', () => {
      const events = decodeMessages([
        chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { arguments: '{"a":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { name: 'f', arguments: '1}' } }] }),
        chunk({}, 'tool_calls'),
        { data: '[DONE]' },
      ]);
      expect(events.filter((event) => event.type.startsWith('tool-call'))).toEqual([
        { type: 'tool-call-start', id: 'b0', toolCallId: 'call_1', name: 'f' },
        { type: 'tool-call-delta', id: 'b0', delta: '{"a":1}' },
        { type: 'tool-call-end', id: 'b0' },
      ]);
    });

    it('should stringify arguments sent as an object and mint an id when none is sent', () => {
      const events = decodeMessages([
        chunk({ tool_calls: [{ index: 0, function: { name: 'f', arguments: { a: 1 } } }] }),
        chunk({}, 'tool_calls'),
      ]);
      expect(events).toContainEqual({ type: 'tool-call-start', id: 'b0', toolCallId: 'call_chatcmpl-t_0', name: 'f' });
      expect(events).toContainEqual({ type: 'tool-call-delta', id: 'b0', delta: '{"a":1}' });
    });
  });

  describe('endings and errors', () => {
    it('should finish at [DONE] without waiting for the connection to close', () => {
      const decoder = createChatStreamDecoder();
      decoder.decode(chunk({ content: 'x' }, 'length'));
      expect(decoder.decode({ data: '[DONE]' }).at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'length' } });
      expect(decoder.end()).toEqual([]);
    });

    it('should finish when the stream closes after a finish reason without [DONE]', () => {
      const events = decodeMessages([chunk({ content: 'x' }, 'stop')]);
      expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop' } });
    });

    it('should end in a retryable error when the stream is cut before any finish reason', () => {
      const events = decodeMessages([chunk({ content: 'x' })]);
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'STREAM_ENDED_EARLY', retryable: true } });
    });

    it('should turn an in-band OpenRouter error into an error event with its status', () => {
      const events = decodeMessages(sseMessagesFixture('chat-completions', 'upstream-openrouter-error'));
      expect(checkStreamEvents(events)).toEqual([]);
      expect(text(events)).toBe('Partial');
      const last = events.at(-1);
      expect(last?.type === 'error' && last.error).toMatchObject({ status: 502, message: 'Provider returned error', retryable: true });
    });

    it('should turn a Groq `event: error` frame into an error event', () => {
      const decoder = createChatStreamDecoder();
      const data = JSON.stringify({
        error: { message: 'tool call failed', type: 'invalid_request_error', code: 'tool_use_failed', status_code: 400 },
      });
      const events = decoder.decode({ event: 'error', data });
      expect(events.at(-1)).toMatchObject({ type: 'error', error: { status: 400, code: 'TOOL_USE_FAILED', retryable: false } });
      expect(decoder.decode(chunk({ content: 'late' }))).toEqual([]);
    });

    it('should turn a failing finish reason into an error event', () => {
      const events = decodeMessages([chunk({ content: 'x' }, 'insufficient_system_resource'), { data: '[DONE]' }]);
      expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'UPSTREAM_GENERATION_FAILED', retryable: true } });
    });
  });
});
