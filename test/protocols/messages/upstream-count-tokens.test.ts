import { describe, expect, it } from 'vitest';
import {
  decodeMessagesCountTokensResponse,
  encodeMessagesCountTokensRequest,
} from '../../../src/protocols/messages/upstream-count-tokens.js';
import { canonicalRequest } from './request-test-kit.js';

describe('encodeMessagesCountTokensRequest', () => {
  it('should keep thinking and tools but leave out max_tokens, stream, sampling, stop sequences and metadata', () => {
    const body = encodeMessagesCountTokensRequest(
      canonicalRequest({
        stream: true,
        maxOutputTokens: 10,
        sampling: { temperature: 0.3 },
        stopSequences: ['x'],
        metadata: { userId: 'u' },
        reasoning: { mode: 'enabled', budgetTokens: 2000 },
        extensions: { messages: { context_management: { edits: [] }, service_tier: 'auto' } },
      }),
      {},
    );
    expect(body).toEqual({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      thinking: { type: 'enabled', budget_tokens: 2000 },
      context_management: { edits: [] },
    });
  });
});

describe('decodeMessagesCountTokensResponse', () => {
  it('should read input_tokens and refuse a body without it', () => {
    expect(decodeMessagesCountTokensResponse({ input_tokens: 2095 })).toBe(2095);
    expect(() => decodeMessagesCountTokensResponse({ tokens: 1 })).toThrow(expect.objectContaining({ code: 'UPSTREAM_INVALID_RESPONSE' }));
  });
});
