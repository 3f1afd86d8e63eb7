import { describe, expect, it } from 'vitest';
import type { CanonicalMessage } from '../../../src/canonical/index.js';
import { encodeMessagesConversation } from '../../../src/protocols/messages/conversation-encoder.js';
import { encodeMessagesToolId } from '../../../src/protocols/messages/tool-id.js';
import { canonicalRequest } from './request-test-kit.js';

const text = (value: string) => ({ type: 'text' as const, text: value });
const call = (id: string, args = '{"city":"Paris"}') => ({ type: 'tool-call' as const, id, name: 'get_weather', arguments: args });
const result = (id: string, value: string) => ({ type: 'tool-result' as const, toolCallId: id, content: [text(value)] });

function encodeMessages(messages: CanonicalMessage[], system?: string) {
  return encodeMessagesConversation(
    canonicalRequest({ messages, ...(system === undefined ? {} : { system: [text(system)] }) }),
    'claude-gateway',
  );
}

describe('encodeMessagesConversation', () => {
  describe('system messages', () => {
    it('should hoist the system prompt and every system message, in order, into top-level system blocks', () => {
      const { system, messages } = encodeMessages(
        [
          { role: 'system', content: [text('Be brief.')] },
          { role: 'user', content: [text('Hi')] },
          { role: 'assistant', content: [text('Hello.')] },
          {
            role: 'system',
            content: [{ type: 'text', text: 'Now in French.', extensions: { messages: { cache_control: { type: 'ephemeral' } } } }],
          },
          { role: 'user', content: [text('Again')] },
        ],
        'You are a weather bot.',
      );
      expect(system).toEqual([
        { type: 'text', text: 'You are a weather bot.' },
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Now in French.', cache_control: { type: 'ephemeral' } },
      ]);
      expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    });

    it('should send no system blocks for blank system text', () => {
      expect(encodeMessages([{ role: 'user', content: [text('Hi')] }], '  ').system).toEqual([]);
    });
  });

  describe('alternation', () => {
    it('should merge consecutive same-role messages instead of inserting blank ones', () => {
      const { messages } = encodeMessages([
        { role: 'user', content: [text('One')] },
        { role: 'user', content: [text('Two')] },
        { role: 'assistant', content: [text('A')] },
        { role: 'assistant', content: [text('B')] },
      ]);
      expect(messages).toEqual([
        { role: 'user', content: [text('One'), text('Two')] },
        { role: 'assistant', content: [text('A'), text('B')] },
      ]);
    });

    it('should never send empty text blocks and drop turns left empty', () => {
      const { messages } = encodeMessages([
        { role: 'user', content: [text('Hi'), text('')] },
        { role: 'assistant', content: [text(''), call('call_1')] },
        { role: 'tool', content: [result('call_1', 'sunny')] },
        { role: 'assistant', content: [text(' \n')] },
        { role: 'user', content: [text('Thanks')] },
      ]);
      expect(messages).toEqual([
        { role: 'user', content: [text('Hi')] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'sunny' }, text('Thanks')] },
      ]);
    });
  });

  describe('tool results', () => {
    it('should merge parallel results into one user turn, results first and the following user text after them', () => {
      const { messages } = encodeMessages([
        { role: 'user', content: [text('Weather in Paris and Rome?')] },
        { role: 'assistant', content: [call('call_a'), call('call_b', '{"city":"Rome"}')] },
        { role: 'tool', content: [result('call_a', 'sunny')] },
        { role: 'tool', content: [result('call_b', 'rainy')] },
        { role: 'user', content: [text('And tomorrow?')] },
      ]);
      expect(messages[2]).toEqual({
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_a', content: 'sunny' },
          { type: 'tool_result', tool_use_id: 'call_b', content: 'rainy' },
          text('And tomorrow?'),
        ],
      });
    });

    it('should move tool results ahead of user text that came before them', () => {
      const { messages } = encodeMessages([
        { role: 'assistant', content: [call('call_a')] },
        { role: 'user', content: [text('Here you go')] },
        { role: 'tool', content: [result('call_a', 'sunny')] },
      ]);
      expect(messages[1]?.content.map((block) => block.type)).toEqual(['tool_result', 'text']);
    });

    it('should sanitize ids the same way on tool_use and tool_result', () => {
      const { messages } = encodeMessages([
        { role: 'assistant', content: [call('mcp.weather:1')] },
        { role: 'tool', content: [{ ...result('mcp.weather:1', 'sunny'), isError: true }] },
      ]);
      const id = encodeMessagesToolId('mcp.weather:1');
      expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
      expect(messages[0]?.content[0]).toMatchObject({ type: 'tool_use', id });
      expect(messages[1]?.content[0]).toEqual({ type: 'tool_result', tool_use_id: id, content: 'sunny', is_error: true });
    });
  });

  describe('tool arguments', () => {
    it.each([
      ['', {}],
      ['  ', {}],
      ['{"a":1}', { a: 1 }],
      ['not json', { _raw: 'not json' }],
      ['[1,2]', { _raw: '[1,2]' }],
    ])('should send arguments %j as the input object %j', (args, input) => {
      expect(encodeMessages([{ role: 'assistant', content: [call('call_1', args)] }]).messages[0]?.content[0]).toMatchObject({ input });
    });
  });

  describe('reasoning', () => {
    it('should replay signed thinking and redacted thinking byte-exact, first in the assistant turn', () => {
      const { messages } = encodeMessages([
        {
          role: 'assistant',
          content: [
            text('Checking.'),
            { type: 'reasoning', text: '', signature: 'EuYBCkYIBxgC+/=' },
            { type: 'reasoning', text: '', redactedData: 'EmwKAhgB' },
            call('toolu_1'),
          ],
        },
      ]);
      expect(messages[0]?.content).toEqual([
        { type: 'thinking', thinking: '', signature: 'EuYBCkYIBxgC+/=' },
        { type: 'redacted_thinking', data: 'EmwKAhgB' },
        text('Checking.'),
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      ]);
    });

    it('should keep the order of a turn that already opens with thinking (interleaved thinking)', () => {
      const content = [
        { type: 'reasoning' as const, text: 'a', signature: 's1' },
        text('Searching.'),
        { type: 'reasoning' as const, text: 'b', signature: 's2' },
        text('Done.'),
      ];
      expect(encodeMessages([{ role: 'assistant', content }]).messages[0]?.content.map((block) => block.type)).toEqual([
        'thinking',
        'text',
        'thinking',
        'text',
      ]);
    });

    it('should leave out reasoning without an Anthropic signature, never turning it into text', () => {
      const { messages } = encodeMessages([
        { role: 'user', content: [text('Hi')] },
        { role: 'assistant', content: [{ type: 'reasoning', text: 'OpenAI summary' }, text('Hello.')] },
      ]);
      expect(messages[1]).toEqual({ role: 'assistant', content: [text('Hello.')] });
    });
  });

  describe('passthrough', () => {
    it('should put message-level extension fields back on the wire message', () => {
      const { messages } = encodeMessages([{ role: 'user', content: [text('Hi')], extensions: { messages: { x_trace: 't' } } }]);
      expect(messages[0]).toEqual({ role: 'user', content: [text('Hi')], x_trace: 't' });
    });
  });
});
