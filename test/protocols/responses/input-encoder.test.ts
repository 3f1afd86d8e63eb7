import { describe, expect, it } from 'vitest';
import type { CanonicalMessage, CanonicalRequest } from '../../../src/canonical/index.js';
import { GatewayError } from '../../../src/canonical/index.js';
import { encodeResponsesInput } from '../../../src/protocols/responses/input-encoder.js';

const inputOf = (messages: CanonicalMessage[], overrides: Partial<CanonicalRequest> = {}) =>
  encodeResponsesInput({ model: 'gpt-5', stream: false, messages, ...overrides }).input;

/** An Anthropic-style tool turn: thinking with a signature, text, a tool_use, then its result. */
const anthropicTurn: CanonicalMessage[] = [
  { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'I should call the tool.', signature: 'EqQBCkgIARABGAIiQLanthropic' },
      { type: 'text', text: 'Let me check.' },
      { type: 'tool-call', id: 'toolu_01A', name: 'get_weather', arguments: '{"city":"Paris"}' },
    ],
  },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_01A', content: [{ type: 'text', text: 'sunny' }] }] },
];

describe('encodeResponsesInput', () => {
  describe('assistant turns from another protocol', () => {
    it('should split the turn into a message item and a function_call item with minted ids and the original call id', () => {
      const input = inputOf(anthropicTurn);
      expect(input).toHaveLength(4);
      expect(input[1]).toEqual({
        type: 'message',
        role: 'assistant',
        id: expect.stringMatching(/^msg_/),
        status: 'completed',
        content: [{ type: 'output_text', text: 'Let me check.', annotations: [] }],
      });
      expect(input[2]).toEqual({
        type: 'function_call',
        id: expect.stringMatching(/^fc_/),
        call_id: 'toolu_01A',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      });
      expect(input[3]).toEqual({ type: 'function_call_output', call_id: 'toolu_01A', output: 'sunny' });
    });

    it('should mint the same ids for the same history on every turn', () => {
      expect(inputOf(anthropicTurn)).toEqual(inputOf(anthropicTurn));
      const ids = inputOf(anthropicTurn).map((item) => item.id);
      expect(new Set(ids.filter((id) => id !== undefined)).size).toBe(2);
    });

    it('should never forward an Anthropic thinking signature or redacted thinking', () => {
      const input = inputOf([
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: '', redactedData: 'opaque' },
            { type: 'text', text: 'Hello' },
          ],
        },
      ]);
      expect(JSON.stringify(input)).not.toContain('EqQB');
      expect(JSON.stringify(input)).not.toContain('opaque');
      expect(input.map((item) => item.type)).toEqual(['message', 'message']);
    });

    it('should replay OpenAI reasoning with its encrypted content, first, with its id', () => {
      const input = inputOf([
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Thinking', extensions: { responses: { id: 'rs_1', encrypted_content: 'gAAAAB' } } },
            { type: 'tool-call', id: 'call_1', name: 'f', arguments: '' },
          ],
        },
      ]);
      expect(input[0]).toEqual({
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'Thinking' }],
        encrypted_content: 'gAAAAB',
      });
      expect(input[1]).toMatchObject({ type: 'function_call', call_id: 'call_1', arguments: '{}' });
    });

    it('should leave out empty text from another protocol (a Chat assistant with content "" and tool calls)', () => {
      const input = inputOf([
        {
          role: 'assistant',
          content: [
            { type: 'text', text: '' },
            { type: 'tool-call', id: 'call_9', name: 'f', arguments: '{}' },
          ],
        },
      ]);
      expect(input.map((item) => item.type)).toEqual(['function_call']);
    });

    it('should keep adjacent text parts in one message item', () => {
      const input = inputOf([
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
            { type: 'refusal', text: 'no' },
          ],
        },
      ]);
      expect(input).toHaveLength(1);
      expect(input[0]?.content).toEqual([
        { type: 'output_text', text: 'a', annotations: [] },
        { type: 'output_text', text: 'b', annotations: [] },
        { type: 'refusal', refusal: 'no' },
      ]);
    });
  });

  describe('tool results', () => {
    it('should send one function_call_output per result, in order, error results saying so', () => {
      const input = inputOf([
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'a',
              content: [
                { type: 'text', text: 'line 1' },
                { type: 'text', text: 'line 2' },
              ],
            },
            { type: 'tool-result', toolCallId: 'b', content: [{ type: 'text', text: 'not found' }], isError: true },
          ],
        },
      ]);
      expect(input).toEqual([
        { type: 'function_call_output', call_id: 'a', output: 'line 1\nline 2' },
        { type: 'function_call_output', call_id: 'b', output: 'Error: not found' },
      ]);
    });

    it('should send a result with an image as content parts', () => {
      const input = inputOf([
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'shot',
              content: [
                { type: 'text', text: 'screenshot' },
                { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAA' } },
              ],
            },
          ],
        },
      ]);
      expect(input[0]?.output).toEqual([
        { type: 'input_text', text: 'screenshot' },
        { type: 'input_image', image_url: 'data:image/png;base64,AAA', detail: 'auto' },
      ]);
    });
  });

  describe('user content', () => {
    it('should encode images, documents and audio as input parts', () => {
      const input = inputOf([
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' }, detail: 'high' },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/jpeg', data: '/9j/' } },
            { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBE' } },
            { type: 'file', source: { kind: 'url', url: 'https://example.com/a.pdf' }, filename: 'a.pdf' },
            { type: 'file', source: { kind: 'text', mediaType: 'text/plain', text: 'plain doc' } },
            { type: 'audio', data: 'UklG', format: 'wav' },
          ],
        },
      ]);
      expect(input[0]?.content).toEqual([
        { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'high' },
        { type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/', detail: 'auto' },
        { type: 'input_file', file_data: 'data:application/pdf;base64,JVBE', filename: 'document.pdf' },
        { type: 'input_file', file_url: 'https://example.com/a.pdf', filename: 'a.pdf' },
        { type: 'input_text', text: 'plain doc' },
        { type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } },
      ]);
    });

    it("should refuse another protocol's provider-defined content with a 400", () => {
      const work = () =>
        inputOf([{ role: 'user', content: [{ type: 'provider-defined', protocol: 'messages', kind: 'search_result', data: {} }] }]);
      expect(work).toThrow(GatewayError);
      expect(work).toThrow(/search_result/);
    });

    it('should send Responses client-side items (computer_call_output) as their own items', () => {
      const item = { type: 'computer_call_output', call_id: 'cu_1', output: { type: 'computer_screenshot', image_url: 'data:…' } };
      const input = inputOf([
        { role: 'user', content: [{ type: 'provider-defined', protocol: 'responses', kind: 'computer_call_output', data: item }] },
      ]);
      expect(input).toEqual([item]);
    });
  });

  describe('system parts', () => {
    it('should turn marked system parts back into developer items and unmarked ones into instructions', () => {
      const encoded = encodeResponsesInput({
        model: 'm',
        stream: false,
        system: [
          { type: 'text', text: 'Instructions' },
          { type: 'text', text: 'Dev rule 1', extensions: { responses: { role: 'developer' } } },
          { type: 'text', text: 'Dev rule 2', extensions: { responses: { role: 'developer' } } },
        ],
        messages: [],
      });
      expect(encoded).toEqual({
        instructions: 'Instructions',
        input: [
          {
            type: 'message',
            role: 'developer',
            content: [
              { type: 'input_text', text: 'Dev rule 1' },
              { type: 'input_text', text: 'Dev rule 2' },
            ],
          },
        ],
      });
    });
  });
});
