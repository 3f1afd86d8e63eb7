import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CanonicalRequest, CanonicalStreamEvent } from '../../src/canonical/index.js';
import { createChatStreamEncoder } from '../../src/protocols/chat-completions/stream-encoder.js';
import { createMessagesStreamEncoder } from '../../src/protocols/messages/stream-encoder.js';
import { createResponsesStreamEncoder } from '../../src/protocols/responses/stream-encoder.js';

const request: CanonicalRequest = { model: 'm', stream: true, messages: [] };
const context = { requestId: 'req_1', created: 1, request };

/** The frames of an encoder's output, as their JSON payloads, re-serialised by JSON.stringify. */
const frames = (text: string) => text.split('\n\n').filter(Boolean);

describe('text delta templates', () => {
  // Any string a model can send, lone surrogates, quotes, control characters and U+2028 included.
  const texts = fc.array(fc.string({ unit: 'binary', minLength: 1 }), { minLength: 1, maxLength: 5 });

  it('should write Chat text deltas byte for byte as JSON.stringify of the chunk would, with and without usage', () => {
    fc.assert(
      fc.property(texts, fc.boolean(), (deltas, includeUsage) => {
        const encoder = createChatStreamEncoder({ ...context, request: { ...request, includeUsage } });
        encoder.encode({ type: 'start', id: 'chatcmpl-1', model: 'm' });
        encoder.encode({ type: 'text-start', id: 't' });
        for (const text of deltas) {
          const chunk = {
            id: 'chatcmpl-1',
            object: 'chat.completion.chunk',
            created: 1,
            model: 'm',
            choices: [{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }],
            ...(includeUsage ? { usage: null } : {}),
          };
          expect(encoder.encode({ type: 'text-delta', id: 't', delta: text })).toBe(`data: ${JSON.stringify(chunk)}\n\n`);
        }
      }),
    );
  });

  it('should write Messages text deltas byte for byte as JSON.stringify of the event would', () => {
    fc.assert(
      fc.property(texts, (deltas) => {
        const encoder = createMessagesStreamEncoder(context);
        const events: CanonicalStreamEvent[] = [
          { type: 'start', id: 'r', model: 'm' },
          { type: 'text-start', id: 't' },
        ];
        for (const event of events) encoder.encode(event);
        for (const text of deltas) {
          const expected = `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })}\n\n`;
          expect(encoder.encode({ type: 'text-delta', id: 't', delta: text })).toBe(expected);
        }
      }),
    );
  });

  it('should write Responses text deltas byte for byte as JSON.stringify of the event would', () => {
    fc.assert(
      fc.property(texts, (deltas) => {
        const encoder = createResponsesStreamEncoder(context);
        const opening = encoder.encode({ type: 'start', id: 'r', model: 'm' }) + encoder.encode({ type: 'text-start', id: 't' });
        const added = frames(opening).map((frame) => JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as Record<string, unknown>);
        let sequence = added.length;
        const item = added.find((event) => event.type === 'response.output_item.added') as { item: { id: string }; output_index: number };
        for (const text of deltas) {
          const event = {
            type: 'response.output_text.delta',
            sequence_number: sequence++,
            item_id: item.item.id,
            output_index: item.output_index,
            content_index: 0,
            delta: text,
            logprobs: [],
          };
          expect(encoder.encode({ type: 'text-delta', id: 't', delta: text })).toBe(
            `event: response.output_text.delta\ndata: ${JSON.stringify(event)}\n\n`,
          );
        }
      }),
    );
  });
});
