import { describe, expect, it } from 'vitest';
import { resolveServerKey } from '../../src/server/resolve-server-key.js';

describe('resolveServerKey', () => {
  it('should use SWITCHYARD_API_KEY when it is set', () => {
    const resolved = resolveServerKey({ models: [{ id: 'mock', provider: 'mock' }] }, { SWITCHYARD_API_KEY: 'sk-mine' });
    expect(resolved).toEqual({
      options: { models: [{ id: 'mock', provider: 'mock' }], apiKeys: ['sk-mine'] },
      key: 'sk-mine',
      source: 'env',
    });
  });

  it('should generate a different development key for each run when no key is set', () => {
    const first = resolveServerKey({}, {});
    const second = resolveServerKey({}, {});
    expect(first.source).toBe('generated');
    expect(first.key).toMatch(/^sk-dev-[0-9a-f]{36}$/);
    expect(first.options.apiKeys).toEqual([first.key]);
    expect(second.key).not.toBe(first.key);
  });

  it('should keep the apiKeys of a config file and print none of them', () => {
    const resolved = resolveServerKey({ apiKeys: ['sk-file'] }, { SWITCHYARD_API_KEY: 'sk-env' });
    expect(resolved).toEqual({ options: { apiKeys: ['sk-file'] }, key: undefined, source: 'config' });
  });

  it('should add no key when the config says requireApiKey: false', () => {
    expect(resolveServerKey({ requireApiKey: false }, {})).toEqual({ options: { requireApiKey: false }, key: undefined, source: 'none' });
  });

  it('should not change the options it was given', () => {
    const options = {};
    resolveServerKey(options, {});
    expect(options).toEqual({});
  });
});
