import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/canonical/index.js';
import { resolveOptions } from '../../src/options.js';
import { resolveModel } from '../../src/routing/resolve-model.js';
import { silentLogger } from '../../src/logger.js';

const options = resolveOptions({
  logger: silentLogger,
  models: [
    { id: 'fast', provider: 'mock', upstreamModel: 'mock-fast', aliases: ['quick'] },
    { id: 'smart', provider: 'mock' },
  ],
});

describe('resolveModel', () => {
  it('should find a model by id and report its upstream id', () => {
    const model = resolveModel(options.models, 'fast');
    expect(model.upstreamModel).toBe('mock-fast');
    expect(model.providerId).toBe('mock');
  });

  it('should find a model by alias', () => {
    expect(resolveModel(options.models, 'quick').id).toBe('fast');
  });

  it('should throw UNKNOWN_MODEL with the closest id suggested', () => {
    try {
      resolveModel(options.models, 'smrat');
      expect.unreachable();
    } catch (error) {
      expect(GatewayError.isInstance(error)).toBe(true);
      const gatewayError = error as GatewayError;
      expect(gatewayError.code).toBe('UNKNOWN_MODEL');
      expect(gatewayError.status).toBe(404);
      expect(gatewayError.message).toContain("Did you mean 'smart'?");
    }
  });
});
