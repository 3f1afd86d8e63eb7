import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/canonical/index.js';
import { parseCliArgs } from '../../src/server/parse-cli-args.js';
import { parseConfigText } from '../../src/server/load-config.js';
import { sourceFor } from '../../src/reconcile/reconcile.js';

const flagError = (argv: string[]) => {
  try {
    parseCliArgs(argv);
  } catch (error) {
    return GatewayError.isInstance(error) ? `${error.code}: ${error.message.split('\n')[0]}` : String(error);
  }
  return 'no error';
};

describe('reconcile configuration and flags', () => {
  it("should take each provider's admin key, admin URL and key id from the config, and keep them from the provider itself", () => {
    const config = parseConfigText(
      [
        'providers:',
        '  openai: { apiKey: sk-a, adminKey: "${ADMIN}", apiKeyId: key_a }',
        '  openai-eu: { type: openai-responses, apiKey: sk-b, apiKeyId: key_b }',
        '  azure: { type: openai, apiKey: x, azure: { resource: r } }',
        '  claude: { type: anthropic, apiKey: sk-ant, adminKey: sk-ant-admin, adminBaseURL: "http://127.0.0.1:9/" }',
        'models:',
        '  - { id: m, provider: openai }',
      ].join('\n'),
      'switchyard.yaml',
      { ADMIN: 'sk-admin-from-env' },
    );
    expect(config.reportSources).toEqual([
      {
        provider: 'openai',
        adminKey: 'sk-admin-from-env',
        baseURL: 'https://api.openai.com/v1',
        gatewayProviders: [
          { name: 'openai', apiKeyId: 'key_a' },
          { name: 'openai-eu', apiKeyId: 'key_b' },
        ],
      },
      { provider: 'anthropic', adminKey: 'sk-ant-admin', baseURL: 'http://127.0.0.1:9/', gatewayProviders: [{ name: 'claude' }] },
    ]);
    expect(config.gateway.providers?.openai).toEqual({ apiKey: 'sk-a' });
    expect(config.gateway.providers?.claude).toEqual({ type: 'anthropic', apiKey: 'sk-ant' });
    // Without an admin key for the provider asked for: how to give one.
    expect(() => sourceFor(config.reportSources ?? [], 'openai')).not.toThrow();
    expect(() => sourceFor([], 'anthropic')).toThrow(
      expect.objectContaining({ code: 'RECONCILE_NO_ADMIN_KEY', message: expect.stringContaining('adminKey: ${ANTHROPIC_ADMIN_KEY}') }),
    );
    expect(() =>
      parseConfigText('providers:\n  g: { type: gemini, apiKey: k, adminKey: a }\nmodels: [{ id: m, provider: g }]\n', 'c.yaml', {}),
    ).toThrow(/providers\.g\.adminKey: only OpenAI's/);
    expect(() =>
      parseConfigText('providers:\n  openai: { apiKey: sk-a, adminKey: "" }\nmodels: [{ id: m, provider: openai }]\n', 'c.yaml', {}),
    ).toThrow(/providers\.openai\.adminKey/);
  });

  it('should parse reconcile flags: a provider, UTC days both included, a threshold in percent', () => {
    expect(
      parseCliArgs(['reconcile', '--provider', 'anthropic', '--from', '2026-11-01', '--to', '2026-11-30', '--threshold', '1.5%', '--json']),
    ).toEqual({
      command: 'reconcile',
      store: {},
      provider: 'anthropic',
      from: '2026-11-01',
      to: '2026-11-30',
      threshold: 1.5,
      json: true,
    });
    expect(parseCliArgs(['reconcile', '--provider', 'openai', '--from', '2026-11-01', '--to', '2026-11-01'])).toMatchObject({
      threshold: 0.5,
      json: false,
    });
    expect(flagError(['reconcile', '--provider', 'gemini', '--from', '2026-11-01'])).toMatch(
      /CONFIG_FLAG_INVALID: 'reconcile' needs --provider openai or anthropic; got 'gemini'/,
    );
    expect(flagError(['reconcile', '--provider', 'openai'])).toMatch(/needs --from/);
    expect(flagError(['reconcile', '--provider', 'openai', '--from', '2026-11-31'])).toMatch(/--from takes a UTC day/);
    expect(flagError(['reconcile', '--provider', 'openai', '--from', '2026-11-02', '--to', '2026-11-01'])).toMatch(/is after --to/);
    expect(flagError(['reconcile', '--provider', 'openai', '--from', '2026-11-01', '--threshold', 'lots'])).toMatch(
      /--threshold takes a percentage/,
    );
    expect(flagError(['reconcile', '--provider', 'openai', '--from', '2024-01-01', '--to', '2026-01-01'])).toMatch(/at most 366 days/);
    expect(flagError(['reconcile', '--provider', 'openai', '--from', '2026-11-01', '--by', 'day'])).toMatch(
      /'reconcile' does not take --by/,
    );
  });
});
