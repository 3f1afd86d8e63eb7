import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/canonical/index.js';
import { resolveOptions } from '../../src/gateway/resolve-options.js';
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

  it('should say why a known but unavailable model is not served', () => {
    const unavailable = new Map([['gpt-5.4-mini', 'It is served when OPENAI_API_KEY is set; this server started without it.']]);
    let caught: unknown;
    try {
      resolveModel(options.models, 'gpt-5.4-mini', unavailable);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ status: 404, code: 'UNKNOWN_MODEL', param: 'model' });
    expect((caught as Error).message).toBe(
      "The model 'gpt-5.4-mini' is known to this gateway but not available. It is served when OPENAI_API_KEY is set; this server started without it. GET /v1/models lists the models you can use.",
    );
  });

  it('should serve a configured model even when the same id is listed as unavailable', () => {
    expect(resolveModel(options.models, 'fast', new Map([['fast', 'never said']])).id).toBe('fast');
  });
});
