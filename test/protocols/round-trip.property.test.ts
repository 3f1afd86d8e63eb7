import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CanonicalMessage, CanonicalRequest } from '../../src/canonical/index.js';
import { chatCodec, encodeChatRequest, openAIChatDialect } from '../../src/protocols/chat-completions/index.js';
import { decodeMessagesRequest, encodeMessagesRequest } from '../../src/protocols/messages/index.js';
import { decodeResponsesRequest } from '../../src/protocols/responses/request.js';
import { encodeResponsesRequest } from '../../src/protocols/responses/request-encoder.js';
import { arbitraryCanonicalRequest } from '../helpers/canonical-arbitraries.js';

interface Codec {
  name: string;
  encode(request: CanonicalRequest): unknown;
  decode(body: unknown): CanonicalRequest;
  stopSequences: boolean;
}

const codecs: Codec[] = [
  {
    name: 'chat',
    encode: (request) => encodeChatRequest(request, { dialect: openAIChatDialect, hintFields: chatCodec.hintFields }),
    decode: (body) => chatCodec.decodeRequest(body),
    stopSequences: true,
  },
  {
    name: 'responses',
    encode: (request) => encodeResponsesRequest(request, { stream: request.stream }),
    decode: decodeResponsesRequest,
    stopSequences: false,
  },
  {
    name: 'messages',
    encode: (request) => encodeMessagesRequest(request, { defaultMaxTokens: 4096 }),
    decode: decodeMessagesRequest,
    stopSequences: true,
  },
];

/** What a request means, whatever wire it went through: texts, calls (arguments as values), results, settings. */
function meaning(request: CanonicalRequest) {
  const message = (entry: CanonicalMessage) => ({
    role: entry.role,
    parts: entry.content.map((part) => {
      switch (part.type) {
        case 'text':
          return { text: part.text };
        case 'tool-call':
          return { call: part.id, name: part.name, arguments: JSON.parse(part.arguments) as unknown };
        case 'tool-result':
          return { result: part.toolCallId, content: part.content.map((item) => (item.type === 'text' ? item.text : item.type)) };
        default:
          return { other: part.type };
      }
    }),
  });
  return {
    model: request.model,
    system: request.system?.map((part) => part.text).join('\n'),
    messages: request.messages.map(message),
    tools: request.tools?.map((tool) => (tool.type === 'function' ? [tool.name, tool.description, tool.parameters] : tool.kind)),
    maxOutputTokens: request.maxOutputTokens,
    temperature: request.sampling?.temperature,
    stopSequences: request.stopSequences,
    stream: request.stream,
  };
}

describe('decode → encode → decode of canonical requests', () => {
  for (const codec of codecs) {
    describe(codec.name, () => {
      it('should be stable: a decoded request encodes and decodes to itself', () => {
        fc.assert(
          fc.property(arbitraryCanonicalRequest({ stopSequences: codec.stopSequences }), (original) => {
            const once = codec.decode(codec.encode(original));
            const twice = codec.decode(codec.encode(once));
            expect(twice).toEqual(once);
          }),
          { numRuns: 150 },
        );
      });

      it('should keep the meaning of a canonical request through the wire', () => {
        fc.assert(
          fc.property(arbitraryCanonicalRequest({ stopSequences: codec.stopSequences }), (original) => {
            expect(meaning(codec.decode(codec.encode(original)))).toEqual(meaning(original));
          }),
          { numRuns: 150 },
        );
      });
    });
  }
});
