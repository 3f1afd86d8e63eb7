import { describe, expect, it } from 'vitest';
import { interpolateEnv } from '../../src/server/interpolate-env.js';
import { gatewayErrorOf } from '../helpers/gateway-error-of.js';


describe('interpolateEnv', () => {
  it('should replace references in nested string values and leave other values alone', () => {
    const document = { apiKeys: ['${KEY}'], providers: { openai: { apiKey: 'sk-${KEY}-x', timeoutMs: 5 } }, diagnoseBaseUrl: true };
    expect(interpolateEnv(document, { KEY: 'abc' })).toEqual({
      apiKeys: ['abc'],
      providers: { openai: { apiKey: 'sk-abc-x', timeoutMs: 5 } },
      diagnoseBaseUrl: true,
    });
  });

  it('should not change the document it was given', () => {
    const document = { apiKeys: ['${KEY}'] };
    interpolateEnv(document, { KEY: 'abc' });
    expect(document).toEqual({ apiKeys: ['${KEY}'] });
  });

  it('should name the missing variable and the field that uses it', () => {
    const error = gatewayErrorOf(() => interpolateEnv({ providers: { openai: { apiKey: '${OPENAI_API_KEY}' } } }, {}));
    expect(error.code).toBe('CONFIG_ENV_MISSING');
    expect(error.message).toContain('OPENAI_API_KEY');
    expect(error.message).toContain('providers.openai.apiKey');
  });

  it('should treat an empty variable as missing', () => {
    expect(gatewayErrorOf(() => interpolateEnv({ apiKeys: ['${KEY}'] }, { KEY: '' })).code).toBe('CONFIG_ENV_MISSING');
  });

  it('should use the fallback of ${NAME:-fallback} only when the variable is unset or empty', () => {
    const document = { url: '${BASE:-http://localhost:11434/v1}' };
    expect(interpolateEnv(document, {})).toEqual({ url: 'http://localhost:11434/v1' });
    expect(interpolateEnv(document, { BASE: '' })).toEqual({ url: 'http://localhost:11434/v1' });
    expect(interpolateEnv(document, { BASE: 'http://gpu:8000/v1' })).toEqual({ url: 'http://gpu:8000/v1' });
  });

  it('should keep $${…} as a literal ${…}', () => {
    expect(interpolateEnv({ reply: 'costs $${PRICE}' }, {})).toEqual({ reply: 'costs ${PRICE}' });
  });

  it('should reject a reference that is not a variable name, with its path', () => {
    const error = gatewayErrorOf(() => interpolateEnv({ models: [{ id: '${not a name}' }] }, {}));
    expect(error.code).toBe('CONFIG_ENV_REFERENCE_INVALID');
    expect(error.message).toContain('models[0].id');
  });
});
