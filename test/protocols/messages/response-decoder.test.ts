import { describe, expect, it } from 'vitest';
import { encodeMessagesResponse } from '../../../src/protocols/messages/response.js';
import { decodeMessagesResponse } from '../../../src/protocols/messages/response-decoder.js';
import { createEncodeContext } from './encode-context.js';
import { gatewayErrorOf } from '../../helpers/gateway-error-of.js';
import { jsonFixture } from '../../helpers/fixtures.js';

const failure = (body: unknown) => gatewayErrorOf(() => decodeMessagesResponse(body));

describe('decodeMessagesResponse', () => {
  describe('content', () => {
    it('should decode thinking with its signature, text and a tool call with JSON arguments', () => {
      const response = decodeMessagesResponse(jsonFixture('messages', 'upstream-response'));
      expect(response.id).toBe('msg_01XFDUDYJgAACzvnptvVoYEL');
      expect(response.model).toBe('claude-sonnet-4-5');
      expect(response.content).toEqual([
        { type: 'reasoning', text: '…', signature: 'EqQB…' },
        { type: 'text', text: 'Let me check.', extensions: { messages: { citations: null } } },
        { type: 'tool-call', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ]);
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
    });

    it('should keep server-tool blocks verbatim as Anthropic provider-defined parts', () => {
      const response = decodeMessagesResponse(jsonFixture('messages', 'upstream-server-tool-response'));
      expect(response.content[0]).toEqual({
        type: 'provider-defined',
        protocol: 'messages',
        kind: 'server_tool_use',
        data: { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'weather paris' } },
      });
      expect(response.content[1]).toMatchObject({ type: 'provider-defined', kind: 'web_search_tool_result' });
    });

    it('should keep a block type it does not know instead of failing', () => {
      const response = decodeMessagesResponse({ id: 'msg_x', content: [{ type: 'hologram', beam: 1 }], stop_reason: 'end_turn' });
      expect(response.content).toEqual([
        { type: 'provider-defined', protocol: 'messages', kind: 'hologram', data: { type: 'hologram', beam: 1 } },
      ]);
    });
  });

  describe('usage', () => {
    it('should make input the total of uncached, cache read and cache write tokens', () => {
      expect(decodeMessagesResponse(jsonFixture('messages', 'upstream-server-tool-response')).usage).toEqual({
        inputTokens: 4200,
        outputTokens: 50,
        cachedInputTokens: 3000,
        cacheWriteTokens: 200,
        totalTokens: 4250,
      });
    });

    it('should leave counts the upstream did not send undefined', () => {
      expect(decodeMessagesResponse({ content: [], stop_reason: 'end_turn' }).usage).toEqual({});
    });
  });

  describe('passthrough', () => {
    it('should keep top-level fields without a canonical home and re-encode citations for a Messages client', () => {
      const response = decodeMessagesResponse(jsonFixture('messages', 'upstream-server-tool-response'));
      expect(response.extensions).toEqual({ messages: { container: null, stop_details: null } });
      const wire = encodeMessagesResponse(response, createEncodeContext({ model: 'claude-gateway' }));
      expect(wire.content).toEqual((jsonFixture('messages', 'upstream-server-tool-response') as { content: unknown[] }).content);
    });

    it('should keep the stop sequence that fired', () => {
      const response = decodeMessagesResponse({
        content: [{ type: 'text', text: 'a' }],
        stop_reason: 'stop_sequence',
        stop_sequence: '###',
      });
      expect(response).toMatchObject({ finishReason: { unified: 'stop', raw: 'stop_sequence' }, stopSequence: '###' });
    });
  });

  describe('bad bodies', () => {
    it('should refuse a body without content as an upstream error', () => {
      expect(failure('<html>bad gateway</html>')).toMatchObject({ kind: 'upstream', code: 'UPSTREAM_INVALID_RESPONSE', status: 502 });
    });

    it('should turn an error body sent with 200 into that error', () => {
      expect(failure({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).toMatchObject({
        kind: 'overloaded',
        status: 529,
        retryable: true,
      });
    });
  });
});
