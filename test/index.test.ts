import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as testing from '../src/testing/index.js';
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

describe('renamed public types', () => {
  it('should keep each old name as an alias of the new one', () => {
    expectTypeOf<switchyard.ModelConfig>().toEqualTypeOf<switchyard.ModelOptions>();
    expectTypeOf<switchyard.ProviderConfig>().toEqualTypeOf<switchyard.BuiltInProviderOptions>();
    expectTypeOf<switchyard.DeploymentConfig>().toEqualTypeOf<switchyard.DeploymentOptions>();
    expectTypeOf<testing.ContractSetup>().toEqualTypeOf<testing.AdapterUnderTest>();
  });
});
