import { describe, expect, it } from 'vitest';
import * as switchyard from '../src/index.js';

describe('the package entry point', () => {
  it('should export the gateway, every built-in provider factory, GatewayError with its code registry and the typed API over the store, and nothing internal', () => {
    expect(Object.keys(switchyard).sort()).toEqual([
      'DEFAULT_MOCK_REPLY',
      'GatewayError',
      'costOf',
      'createAnthropicProvider',
      'createGeminiProvider',
      'createKey',
      'createMockProvider',
      'createOpenAICompatibleProvider',
      'createOpenAIProvider',
      'createOpenAIResponsesProvider',
      'customErrorCode',
      'errorCodes',
      'findKey',
      'gateway',
      'listKeys',
      'lookupModel',
      'metricsHandler',
      'openAICompatibleProfiles',
      'openDatabase',
      'queryUsage',
      'revokeKey',
      'statusPage',
      'switchyardConsole',
      'switchyardDocs',
    ]);
  });
});
