import { describe, expect, it } from 'vitest';
import { formatBanner, maskKey, type BannerInfo } from '../../src/server/format-banner.js';

const info: BannerInfo = {
  root: 'http://127.0.0.1:8787',
  openAIBaseURL: 'http://127.0.0.1:8787/v1',
  key: 'sk-dev-abc',
  keySource: 'generated',
  models: ['mock'],
  configPath: undefined,
};

const lineWith = (text: string, needle: string) => text.split('\n').find((line) => line.includes(needle)) ?? '';

describe('formatBanner', () => {
  it('should print the API root, the OpenAI base URL and the key', () => {
    const banner = formatBanner(info);
    expect(banner).toMatch(/API root.*http:\/\/127\.0\.0\.1:8787\n/);
    expect(banner).toMatch(/OpenAI base URL:\s+http:\/\/127\.0\.0\.1:8787\/v1\n/);
    expect(lineWith(banner, 'API key:')).toContain('sk-dev-abc');
    expect(lineWith(banner, 'API key:')).toContain('SWITCHYARD_API_KEY');
  });

  it('should print what loading the configuration decided, under the models', () => {
    const note = 'switchyard.yaml has no models: list, so the default models of openai are served; add models: to choose others.';
    const banner = formatBanner({ ...info, models: ['mock', 'gpt-5.4'], notes: [note] });
    expect(banner).toContain(`  Models:                                 mock, gpt-5.4\n  Note: ${note}\n`);
    expect(formatBanner(info)).not.toContain('Note:');
  });

  it('should print where the guide is when it is on', () => {
    expect(formatBanner({ ...info, docsUrl: 'http://127.0.0.1:8787/docs' })).toContain(
      '  Guide (clients, troubleshooting):       http://127.0.0.1:8787/docs\n',
    );
    expect(formatBanner(info)).not.toContain('Guide');
  });

  it('should give OpenAI clients the /v1 URL and Anthropic clients the API root', () => {
    const banner = formatBanner(info);
    expect(lineWith(banner, 'new OpenAI(')).toContain("baseURL: 'http://127.0.0.1:8787/v1'");
    expect(lineWith(banner, 'new Anthropic(')).toContain("baseURL: 'http://127.0.0.1:8787'");
    expect(lineWith(banner, 'ANTHROPIC_BASE_URL=')).toContain('ANTHROPIC_BASE_URL=http://127.0.0.1:8787 ANTHROPIC_AUTH_TOKEN=sk-dev-abc');
  });

  it('should point Claude Code at the mock model when no Claude model is served', () => {
    expect(lineWith(formatBanner(info), 'ANTHROPIC_MODEL=')).toContain('ANTHROPIC_MODEL=mock ANTHROPIC_DEFAULT_HAIKU_MODEL=mock claude');
  });

  it('should point Claude Code at a Claude model and its small model at a Haiku when served', () => {
    const banner = formatBanner({ ...info, models: ['mock', 'gpt-5.4', 'claude-haiku-4-5', 'claude-sonnet-4-6'] });
    expect(lineWith(banner, 'ANTHROPIC_MODEL=')).toContain(
      'ANTHROPIC_MODEL=claude-sonnet-4-6 ANTHROPIC_DEFAULT_HAIKU_MODEL=claude-haiku-4-5',
    );
    expect(lineWith(banner, '"model"')).toContain('"model":"mock"');
  });

  it('should not print keys that came from a config file', () => {
    const banner = formatBanner({ ...info, key: undefined, keySource: 'config', configPath: 'switchyard.yaml' });
    expect(lineWith(banner, 'API key:')).toContain('one of apiKeys in switchyard.yaml');
    expect(lineWith(banner, 'new OpenAI(')).toContain("apiKey: 'YOUR_KEY'");
  });

  it('should quote a key with shell characters in the shell snippets', () => {
    const banner = formatBanner({ ...info, key: "k$y'1", keySource: 'generated' });
    expect(banner).toContain(`-H 'Authorization: Bearer k$y'\\''1'`);
    expect(banner).toContain(`ANTHROPIC_AUTH_TOKEN='k$y'\\''1'`);
  });

  it('should never print a key from SWITCHYARD_API_KEY in full: masked, and the snippets read the variable', () => {
    const key = 'sk-operator-0123456789abcdefXYZW';
    const banner = formatBanner({ ...info, key, keySource: 'env' });
    expect(banner).not.toContain(key);
    expect(lineWith(banner, 'API key:')).toContain('sk-ope…XYZW');
    expect(lineWith(banner, 'API key:')).toContain('SWITCHYARD_API_KEY');
    expect(banner).toContain(`-H "Authorization: Bearer $SWITCHYARD_API_KEY"`);
    expect(lineWith(banner, 'new OpenAI(')).toContain('apiKey: process.env.SWITCHYARD_API_KEY');
    expect(lineWith(banner, 'new Anthropic(')).toContain('apiKey: process.env.SWITCHYARD_API_KEY');
    expect(lineWith(banner, 'OpenAI(base_url=')).toContain('api_key=os.environ["SWITCHYARD_API_KEY"]');
    expect(banner).toContain('ANTHROPIC_AUTH_TOKEN="$SWITCHYARD_API_KEY"');
  });

  it('should print a key the server generated, in full, everywhere it is needed', () => {
    const key = 'sk-dev-0123456789abcdef0123456789abcdef';
    const banner = formatBanner({ ...info, key, keySource: 'generated' });
    expect(banner.split(key).length - 1).toBe(7);
  });
});

describe('maskKey', () => {
  it('should show at most the first 6 and last 4 characters, and never half of a short key', () => {
    expect(maskKey('sk-operator-0123456789abcdefXYZW')).toBe('sk-ope…XYZW');
    expect(maskKey('sk-from-env')).toBe('sk…nv');
    expect(maskKey('abc')).toBe('…');
    for (const key of ['sk-from-env', 'sk-gw', 'x', '0123456789abcdef']) expect(maskKey(key)).not.toContain(key);
  });
});
