import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/canonical/index.js';
import { decodeMessagesCountTokensRequest } from '../../../src/protocols/messages/count-tokens.js';

describe('decodeMessagesCountTokensRequest', () => {
  it('should decode a body without max_tokens and give it no output budget', () => {
    const request = decodeMessagesCountTokensRequest({
      model: 'claude-x',
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(request.model).toBe('claude-x');
    expect(request.system).toEqual([{ type: 'text', text: 'Be brief.' }]);
    expect(request.maxOutputTokens).toBeUndefined();
    expect(request.stream).toBe(false);
  });

  it('should still name a bad field', () => {
    try {
      decodeMessagesCountTokensRequest({ model: 'claude-x', messages: 'Hi' });
      expect.unreachable();
    } catch (error) {
      expect(GatewayError.isInstance(error) && error.param).toBe('messages');
    }
  });
});
