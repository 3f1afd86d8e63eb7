import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/server/load-config.js';

const parse = (text: string) => parseConfigText(text, 'switchyard.yaml', {});

describe('requestPolicySchema in the config file', () => {
  it('should take requestPolicy at the top, per key and on models[], as gateway() does', () => {
    const config = parse(`
requestPolicy:
  fields: { service_tier: allow }
  tools: { web_search: allow }
  anthropicBetas: { 'context-1m-*': allow }
  maxOutputTokens: 16000
  keys:
    ci-bot: { maxChoices: 4 }
models:
  - { id: m, provider: mock, requestPolicy: { fields: { store: allow } } }
`);
    expect(config.gateway.requestPolicy).toEqual({
      fields: { service_tier: 'allow' },
      tools: { web_search: 'allow' },
      anthropicBetas: { 'context-1m-*': 'allow' },
      maxOutputTokens: 16000,
      keys: { 'ci-bot': { maxChoices: 4 } },
    });
    expect(config.gateway.models?.[0]?.requestPolicy).toEqual({ fields: { store: 'allow' } });
  });

  it('should refuse an unknown action or key, naming its path', () => {
    expect(() => parse('requestPolicy: { fields: { store: maybe } }')).toThrow(
      expect.objectContaining({ code: 'CONFIG_FILE_INVALID', message: expect.stringContaining('requestPolicy.fields.store') }),
    );
    expect(() => parse('requestPolicy: { maxTokens: 5 }')).toThrow(expect.objectContaining({ code: 'CONFIG_FILE_INVALID' }));
  });
});
