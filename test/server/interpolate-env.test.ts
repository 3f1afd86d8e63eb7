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

  it('should report every missing variable at once, naming the file and each field', () => {
    const document = {
      apiKeys: ['${SWITCHYARD_API_KEY}'],
      providers: { openai: { apiKey: '${OPENAI_API_KEY}' }, anthropic: { apiKey: '${ANTHROPIC_API_KEY}' } },
    };
    const error = gatewayErrorOf(() => interpolateEnv(document, {}, 'switchyard.yaml'));
    expect(error.code).toBe('CONFIG_ENV_MISSING');
    expect(error.message).toBe(
      [
        'switchyard.yaml has 3 environment variable references that cannot be filled in:',
        '  apiKeys[0] uses ${SWITCHYARD_API_KEY}, and SWITCHYARD_API_KEY is not set (or is empty)',
        '  providers.openai.apiKey uses ${OPENAI_API_KEY}, and OPENAI_API_KEY is not set (or is empty)',
        '  providers.anthropic.apiKey uses ${ANTHROPIC_API_KEY}, and ANTHROPIC_API_KEY is not set (or is empty)',
        'Set SWITCHYARD_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY (export SWITCHYARD_API_KEY=…), or give each a fallback: ${SWITCHYARD_API_KEY:-value}.',
      ].join('\n'),
    );
  });

  describe('references that would become literal values', () => {
    it('should refuse $NAME without braces, showing ${NAME}', () => {
      const error = gatewayErrorOf(() =>
        interpolateEnv({ apiKeys: ['$SWITCHYARD_API_KEY'] }, { SWITCHYARD_API_KEY: 'sk-set' }, 'switchyard.yaml'),
      );
      expect(error.code).toBe('CONFIG_ENV_REFERENCE_INVALID');
      expect(error.message).toBe(
        'switchyard.yaml has an environment variable reference that cannot be filled in:\n' +
          '  apiKeys[0] is \'$SWITCHYARD_API_KEY\', which is not filled in (only ${NAME} is): write "${SWITCHYARD_API_KEY}". ' +
          '(A whole value of $ and an upper-case name is taken for a reference; a $ anywhere else is kept as written.)',
      );
    });

    it('should keep a $ inside a longer value, or before a lower-case word, as written', () => {
      expect(interpolateEnv({ password: 'pa$SWORD', price: '$5', word: '$home' }, {})).toEqual({
        password: 'pa$SWORD',
        price: '$5',
        word: '$home',
      });
    });

    it('should refuse an unclosed ${NAME, showing it closed', () => {
      const error = gatewayErrorOf(() =>
        interpolateEnv({ apiKeys: ['${SWITCHYARD_API_KEY'] }, { SWITCHYARD_API_KEY: 'sk-set' }, 'switchyard.yaml'),
      );
      expect(error.code).toBe('CONFIG_ENV_REFERENCE_INVALID');
      expect(error.message).toContain('apiKeys[0] has \'${SWITCHYARD_API_KEY\' with no closing brace: write "${SWITCHYARD_API_KEY}"');
    });

    it('should not repeat the rest of a value with an unclosed ${ (it may be a secret)', () => {
      const error = gatewayErrorOf(() => interpolateEnv({ providers: { x: { apiKey: 'hunter2${oops' } } }, {}));
      expect(error.code).toBe('CONFIG_ENV_REFERENCE_INVALID');
      expect(error.message).toContain("providers.x.apiKey has a '${' with no closing brace");
      expect(error.message).not.toContain('hunter2');
      expect(error.message).not.toContain('oops');
    });

    it('should list malformed references and missing variables together, under the malformed code', () => {
      const error = gatewayErrorOf(() => interpolateEnv({ a: '$A_KEY', b: '${B_KEY}' }, {}));
      expect(error.code).toBe('CONFIG_ENV_REFERENCE_INVALID');
      expect(error.message).toContain("a is '$A_KEY'");
      expect(error.message).toContain('b uses ${B_KEY}');
    });
  });
});
