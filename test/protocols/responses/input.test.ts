import { describe, expect, it } from 'vitest';
import { encodeResponsesEncryptedContent } from '../../../src/protocols/responses/encrypted-content.js';
import { decodeResponsesInput } from '../../../src/protocols/responses/input.js';

const decode = (input: unknown[]) => decodeResponsesInput(input, ['input']);

describe('decodeResponsesInput', () => {
  describe('messages', () => {
    it('should turn a string input into one user message', () => {
      expect(decodeResponsesInput('Hi', ['input'])).toEqual({
        system: [],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      });
    });

    it('should accept messages without a type', () => {
      expect(decode([{ role: 'user', content: 'Hi' }]).messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
    });

    it('should keep leading system and developer messages as system parts marked with their role', () => {
      const { system, messages } = decode([
        { role: 'system', content: 'Sys' },
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Dev' }] },
        { role: 'user', content: 'Hi' },
      ]);
      expect(system).toEqual([
        { type: 'text', text: 'Sys', extensions: { responses: { role: 'system' } } },
        { type: 'text', text: 'Dev', extensions: { responses: { role: 'developer' } } },
      ]);
      expect(messages).toHaveLength(1);
    });

    it('should keep a later system or developer message in place', () => {
      const { system, messages } = decode([
        { role: 'user', content: 'Hi' },
        { role: 'developer', content: 'Now be terse.' },
        { role: 'system', content: 'Plain system.' },
      ]);
      expect(system).toEqual([]);
      expect(messages.slice(1)).toEqual([
        { role: 'system', content: [{ type: 'text', text: 'Now be terse.' }], extensions: { responses: { role: 'developer' } } },
        { role: 'system', content: [{ type: 'text', text: 'Plain system.' }] },
      ]);
    });

    it('should keep message-level fields of a user message in its extensions', () => {
      expect(decode([{ type: 'message', role: 'user', status: 'completed', id: 'msg_u', content: 'Hi' }]).messages[0]).toEqual({
        role: 'user',
        content: [{ type: 'text', text: 'Hi' }],
        extensions: { responses: { status: 'completed', id: 'msg_u' } },
      });
    });

    it('should decode refusal and input_text parts of an assistant message and keep item fields on each part', () => {
      const { messages } = decode([
        {
          type: 'message',
          role: 'assistant',
          id: 'msg_1',
          status: 'completed',
          content: [
            { type: 'output_text', text: 'Partly', annotations: [], logprobs: [] },
            { type: 'refusal', refusal: 'No.' },
          ],
        },
        { role: 'assistant', content: [{ type: 'input_text', text: 'Easy' }] },
      ]);
      expect(messages).toEqual([
        {
          role: 'assistant',
          content: [
            {
              type: 'text',
              text: 'Partly',
              extensions: { responses: { id: 'msg_1', status: 'completed', annotations: [], logprobs: [] } },
            },
            { type: 'refusal', text: 'No.', extensions: { responses: { id: 'msg_1', status: 'completed' } } },
            { type: 'text', text: 'Easy', extensions: { responses: { part_type: 'input_text' } } },
          ],
        },
      ]);
    });
  });

  describe('reasoning items', () => {
    it('should restore a Switchyard-minted signature', () => {
      const minted = encodeResponsesEncryptedContent({ signature: 'EqQBCkYIBxgCKkA=' });
      const { messages } = decode([
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Hmm' }], encrypted_content: minted },
      ]);
      expect(messages[0]?.content[0]).toEqual({
        type: 'reasoning',
        text: 'Hmm',
        signature: 'EqQBCkYIBxgCKkA=',
        extensions: { responses: { id: 'rs_1' } },
      });
    });

    it('should restore minted redacted thinking data', () => {
      const minted = encodeResponsesEncryptedContent({ redactedData: 'c2VjcmV0' });
      const { messages } = decode([{ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: minted }]);
      expect(messages[0]?.content[0]).toMatchObject({ type: 'reasoning', text: '', redactedData: 'c2VjcmV0' });
    });

    it('should read reasoning_text content and remember that form', () => {
      const { messages } = decode([
        { type: 'reasoning', id: 'rs_2', summary: [], content: [{ type: 'reasoning_text', text: 'raw thoughts' }] },
      ]);
      expect(messages[0]?.content[0]).toEqual({
        type: 'reasoning',
        text: 'raw thoughts',
        extensions: { responses: { id: 'rs_2', reasoning_form: 'reasoning_text' } },
      });
    });

    it('should keep several summary parts verbatim so they can be replayed as sent', () => {
      const summary = [
        { type: 'summary_text', text: 'A' },
        { type: 'summary_text', text: 'B' },
      ];
      const { messages } = decode([{ type: 'reasoning', id: 'rs_3', summary }]);
      expect(messages[0]?.content[0]).toEqual({ type: 'reasoning', text: 'A\n\nB', extensions: { responses: { id: 'rs_3', summary } } });
    });
  });

  describe('grouping', () => {
    it('should merge reasoning, assistant messages and calls that follow each other into one assistant message', () => {
      const { messages } = decode([
        { role: 'user', content: 'Go' },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { role: 'assistant', content: 'Calling.' },
        { type: 'function_call', call_id: 'c1', name: 'a', arguments: '{}' },
        { type: 'function_call', call_id: 'c2', name: 'b', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: '1' },
        { type: 'function_call_output', call_id: 'c2', output: '2' },
        { role: 'assistant', content: 'Done.' },
      ]);
      expect(messages.map((message) => [message.role, message.content.length])).toEqual([
        ['user', 1],
        ['assistant', 4],
        ['tool', 2],
        ['assistant', 1],
      ]);
    });

    it('should carry hosted-tool items verbatim, calls in the assistant turn and outputs in a user turn', () => {
      const call = {
        type: 'computer_call',
        id: 'cu_1',
        call_id: 'call_c',
        action: { type: 'click', x: 1, y: 2 },
        pending_safety_checks: [],
        status: 'completed',
      };
      const output = {
        type: 'computer_call_output',
        call_id: 'call_c',
        output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,AA==' },
      };
      const search = { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'q' } };
      const { messages } = decode([{ role: 'user', content: 'Click' }, call, output, search, { type: 'item_reference', id: 'msg_9' }]);
      expect(messages).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Click' }] },
        { role: 'assistant', content: [{ type: 'provider-defined', protocol: 'responses', kind: 'computer_call', data: call }] },
        { role: 'user', content: [{ type: 'provider-defined', protocol: 'responses', kind: 'computer_call_output', data: output }] },
        {
          role: 'assistant',
          content: [
            { type: 'provider-defined', protocol: 'responses', kind: 'web_search_call', data: search },
            { type: 'provider-defined', protocol: 'responses', kind: 'item_reference', data: { type: 'item_reference', id: 'msg_9' } },
          ],
        },
      ]);
    });
  });

  describe('tool outputs', () => {
    it('should decode an array output into parts and keep item fields', () => {
      const { messages } = decode([
        {
          type: 'function_call_output',
          call_id: 'c1',
          id: 'fco_1',
          status: 'completed',
          output: [
            { type: 'input_text', text: 'see image' },
            { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'low' },
          ],
        },
      ]);
      expect(messages[0]).toEqual({
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            content: [
              { type: 'text', text: 'see image' },
              { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' }, detail: 'low' },
            ],
            extensions: { responses: { id: 'fco_1', status: 'completed' } },
          },
        ],
      });
    });
  });
});
