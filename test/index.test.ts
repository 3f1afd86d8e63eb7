import { describe, expect, it } from 'vitest';
import * as switchyard from '../src/index.js';

describe('the package entry point', () => {
  it('should export the gateway, every built-in provider factory and GatewayError, and nothing internal', () => {
    expect(Object.keys(switchyard).sort()).toEqual([
      'DEFAULT_MOCK_REPLY',
      'GatewayError',
      'createAnthropicProvider',
      'createGeminiProvider',
      'createMockProvider',
      'createOpenAICompatibleProvider',
      'createOpenAIProvider',
      'createOpenAIResponsesProvider',
      'gateway',
      'openAICompatibleProfiles',
    ]);
  });
});
