import { describe, expect, it } from 'vitest';
import { decodeMessagesConversation, decodeMessagesSystem } from '../../../src/protocols/messages/conversation.js';
import { messagesRequestSchema, type MessagesMessage } from '../../../src/protocols/messages/schema.js';

/** Parses wire messages through the request schema, as decodeMessagesRequest does. */
function decode(messages: unknown[]) {
  const wire = messagesRequestSchema.parse({ model: 'm', max_tokens: 1, messages });
  return decodeMessagesConversation(wire.messages satisfies MessagesMessage[]);
}

describe('decodeMessagesSystem', () => {
  it('should turn a string into one text part and blocks into text parts with cache_control kept', () => {
    expect(decodeMessagesSystem('Be brief.')).toEqual([{ type: 'text', text: 'Be brief.' }]);
    expect(decodeMessagesSystem([{ type: 'text', text: 'A', cache_control: { type: 'ephemeral' } }])).toEqual([
      { type: 'text', text: 'A', extensions: { messages: { cache_control: { type: 'ephemeral' } } } },
    ]);
  });
});

describe('decodeMessagesConversation', () => {
  describe('system messages', () => {
    it('should keep a role:system message in place as a SystemMessage', () => {
      expect(
        decode([
          { role: 'user', content: 'a' },
          { role: 'system', content: 'rule' },
        ]),
      ).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'a' }] },
        { role: 'system', content: [{ type: 'text', text: 'rule' }] },
      ]);
    });
  });

  describe('tool results', () => {
    it('should put tool_result blocks in a ToolMessage before a UserMessage with the other blocks', () => {
      const messages = decode([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'before' },
            { type: 'tool_result', tool_use_id: 't1', content: 'ok' },
            { type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: 'bad' }], is_error: true },
          ],
        },
      ]);
      expect(messages).toEqual([
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 't1', content: [{ type: 'text', text: 'ok' }] },
            { type: 'tool-result', toolCallId: 't2', content: [{ type: 'text', text: 'bad' }], isError: true },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'before' }] },
      ]);
    });

    it('should drop the UserMessage when the wire message held only tool results', () => {
      const messages = decode([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1' }] }]);
      expect(messages).toEqual([{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', content: [] }] }]);
    });

    it('should decode images and documents inside a result and keep cache_control', () => {
      const [tool] = decode([
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              cache_control: { type: 'ephemeral' },
              content: [
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } },
                { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'doc' } },
              ],
            },
          ],
        },
      ]);
      expect(tool?.content[0]).toEqual({
        type: 'tool-result',
        toolCallId: 't1',
        content: [
          { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AA==' } },
          { type: 'file', source: { kind: 'text', mediaType: 'text/plain', text: 'doc' } },
        ],
        extensions: { messages: { cache_control: { type: 'ephemeral' } } },
      });
    });

    it('should keep a search_result inside a result as a provider-defined part', () => {
      const content = [
        { type: 'text', text: 'hits:' },
        { type: 'search_result', source: 'https://s', title: 'S', content: [{ type: 'text', text: 'x' }] },
      ];
      const [tool] = decode([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content }] }]);
      expect(tool?.content[0]).toMatchObject({
        content: [
          { type: 'text', text: 'hits:' },
          { type: 'provider-defined', protocol: 'messages', kind: 'search_result', data: content[1] },
        ],
      });
    });
  });

  describe('user content', () => {
    it('should map image sources to media sources', () => {
      const [user] = decode([
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
            { type: 'image', source: { type: 'file', file_id: 'file_1' } },
          ],
        },
      ]);
      expect(user?.content).toEqual([
        { type: 'image', source: { kind: 'url', url: 'https://x/y.png' } },
        { type: 'image', source: { kind: 'file-id', fileId: 'file_1' } },
      ]);
    });

    it('should map a base64 pdf document to a file part with title and context in extensions', () => {
      const [user] = decode([
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' }, title: 'T', context: 'C' },
          ],
        },
      ]);
      expect(user?.content[0]).toEqual({
        type: 'file',
        source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBE' },
        extensions: { messages: { title: 'T', context: 'C' } },
      });
    });

    it('should carry content-source documents, search results and unknown block types verbatim', () => {
      const blocks = [
        { type: 'document', source: { type: 'content', content: 'inline' } },
        { type: 'search_result', source: 's', title: 't', content: [] },
        { type: 'future_block', payload: 1 },
      ];
      const [user] = decode([{ role: 'user', content: blocks }]);
      expect(user?.content).toEqual(
        blocks.map((block) => ({ type: 'provider-defined', protocol: 'messages', kind: block.type, data: block })),
      );
    });

    it('should keep unknown message-level fields in the message extensions', () => {
      expect(decode([{ role: 'user', content: 'x', trace: 'abc' }])[0]?.extensions).toEqual({ messages: { trace: 'abc' } });
    });
  });

  describe('assistant content', () => {
    it('should map thinking, redacted thinking, text and tool_use in order', () => {
      const [assistant] = decode([
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'sig1' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'text', text: 'Calling.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get', input: { q: 'x' }, cache_control: { type: 'ephemeral' } },
          ],
        },
      ]);
      expect(assistant?.content).toEqual([
        { type: 'reasoning', text: 'hmm', signature: 'sig1' },
        { type: 'reasoning', text: '', redactedData: 'opaque' },
        { type: 'text', text: 'Calling.' },
        {
          type: 'tool-call',
          id: 'toolu_1',
          name: 'get',
          arguments: '{"q":"x"}',
          extensions: { messages: { cache_control: { type: 'ephemeral' } } },
        },
      ]);
    });

    it('should carry server-tool blocks as provider-defined parts', () => {
      const block = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } };
      const result = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] };
      const [assistant] = decode([{ role: 'assistant', content: [block, result] }]);
      expect(assistant?.content).toEqual([
        { type: 'provider-defined', protocol: 'messages', kind: 'server_tool_use', data: block },
        { type: 'provider-defined', protocol: 'messages', kind: 'web_search_tool_result', data: result },
      ]);
    });

    it('should turn string content into one text part', () => {
      expect(decode([{ role: 'assistant', content: 'Sure' }])).toEqual([{ role: 'assistant', content: [{ type: 'text', text: 'Sure' }] }]);
    });
  });
});
