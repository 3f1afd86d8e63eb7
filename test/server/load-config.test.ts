import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, parseConfigText } from '../../src/server/load-config.js';
import { gatewayErrorOfAsync } from '../helpers/gateway-error-of.js';

const parse = (text: string, env: NodeJS.ProcessEnv = {}, source = 'switchyard.yaml') => parseConfigText(text, source, env);

describe('parseConfigText', () => {
  it('should split the server section from the options gateway() takes', () => {
    const config = parse(`
server: { port: 9000, host: 0.0.0.0, shutdownTimeoutMs: 2000 }
apiKeys: [sk-one]
requireApiKey: true
providers:
  fast: { type: mock, chunks: 2 }
models:
  - { id: fast, provider: fast, aliases: [quick], upstreamModel: fast-1, ownedBy: me, capabilities: { tools: false } }
bodyLimit: 1mb
diagnoseBaseUrl: false
`);
    expect(config.server).toEqual({ port: 9000, host: '0.0.0.0', shutdownTimeoutMs: 2000 });
    expect(config.gateway).toEqual({
      apiKeys: ['sk-one'],
      requireApiKey: true,
      providers: { fast: { type: 'mock', chunks: 2 } },
      models: [
        { id: 'fast', provider: 'fast', aliases: ['quick'], upstreamModel: 'fast-1', ownedBy: 'me', capabilities: { tools: false } },
      ],
      bodyLimit: '1mb',
      diagnoseBaseUrl: false,
    });
  });

  it('should read JSON when the file name ends in .json', () => {
    const config = parse('{"models":[{"id":"m","provider":"mock"}],"server":{"port":"8080"}}', {}, 'switchyard.json');
    expect(config.gateway.models).toEqual([{ id: 'm', provider: 'mock' }]);
    expect(config.server.port).toBe(8080);
  });

  it('should treat an empty file as no options', () => {
    expect(parse('')).toEqual({ server: {}, gateway: {} });
  });

  it('should fill ${ENV} references before validating', () => {
    const config = parse('apiKeys: ["${GATEWAY_KEY}"]\nserver: { port: "${PORT}" }', { GATEWAY_KEY: 'sk-env', PORT: '9100' });
    expect(config.gateway.apiKeys).toEqual(['sk-env']);
    expect(config.server.port).toBe(9100);
  });

  it('should name a missing environment variable', async () => {
    const error = await gatewayErrorOfAsync(() => parse('providers:\n  anthropic: { apiKey: "${ANTHROPIC_API_KEY}" }'));
    expect(error.code).toBe('CONFIG_ENV_MISSING');
    expect(error.message).toContain('ANTHROPIC_API_KEY');
  });

  it('should name the file and every missing variable at once', async () => {
    const error = await gatewayErrorOfAsync(() =>
      parse(
        'apiKeys: ["${GATEWAY_KEY}"]\nproviders:\n  anthropic: { apiKey: "${ANTHROPIC_API_KEY}" }\nmodels: [{ id: m, provider: anthropic }]',
      ),
    );
    expect(error.message).toMatch(/^switchyard\.yaml has 2 environment variable references that cannot be filled in:\n/);
    expect(error.message).toContain('apiKeys[0] uses ${GATEWAY_KEY}');
    expect(error.message).toContain('providers.anthropic.apiKey uses ${ANTHROPIC_API_KEY}');
  });

  describe('providers without models', () => {
    it('should serve the default models of built-in providers that have them, and say so', () => {
      const config = parse('apiKeys: [k]\nproviders:\n  openai: { apiKey: sk-o }\n  claude: { type: anthropic, apiKey: sk-a }');
      expect(config.gateway.models).toEqual([
        { id: 'mock', provider: 'mock' },
        { id: 'gpt-5.4', provider: 'openai' },
        { id: 'gpt-5.4-mini', provider: 'openai' },
        { id: 'gpt-4.1-mini', provider: 'openai' },
        { id: 'claude-sonnet-4-6', provider: 'claude' },
        { id: 'claude-opus-4-6', provider: 'claude' },
        { id: 'claude-haiku-4-5', provider: 'claude' },
      ]);
      expect(config.notes).toEqual([
        'switchyard.yaml has no models: list, so the default models of openai and claude are served; add models: to choose others.',
      ]);
    });

    it('should refuse providers without default models, listing them with an example models: entry', async () => {
      const error = await gatewayErrorOfAsync(() =>
        parse(
          'apiKeys: [k]\nproviders:\n  openai: { apiKey: sk-o }\n  ollama: { type: openai-compatible, profile: ollama, baseURL: "http://localhost:11434/v1" }',
        ),
      );
      expect(error).toMatchObject({ code: 'CONFIG_FILE_INVALID', param: 'models' });
      expect(error.message).toBe(
        'switchyard.yaml defines providers but no models, and there are no default models for ollama (type openai-compatible): ' +
          'only the mock model would be served. Add a models: list naming each model by the id its provider knows, e.g.\n' +
          '  models:\n    - { id: MODEL_ID, provider: openai }\n    - { id: MODEL_ID, provider: ollama }',
      );
    });

    it('should refuse a second provider of one type, whose default ids would clash', async () => {
      const error = await gatewayErrorOfAsync(() =>
        parse('apiKeys: [k]\nproviders:\n  openai: { apiKey: a }\n  openai-eu: { type: openai, apiKey: b }'),
      );
      expect(error.message).toContain('openai-eu (a second provider of type openai)');
    });
  });

  describe('invalid fields', () => {
    it('should give the path of a bad model field, e.g. models[1].provider', async () => {
      const error = await gatewayErrorOfAsync(() => parse('models:\n  - { id: a, provider: mock }\n  - { id: b }'));
      expect(error.code).toBe('CONFIG_FILE_INVALID');
      expect(error.param).toBe('models[1].provider');
      expect(error.message).toContain('switchyard.yaml');
      expect(error.message).toContain('models[1].provider');
    });

    it('should reject a model whose provider is not defined, listing the defined ones', async () => {
      const error = await gatewayErrorOfAsync(() =>
        parse('providers: { fast: { type: mock } }\nmodels:\n  - { id: a, provider: mock }\n  - { id: b, provider: olama }'),
      );
      expect(error.param).toBe('models[1].provider');
      expect(error.message).toContain("'olama'");
      expect(error.message).toContain('fast');
    });

    it('should suggest the defined provider closest to a misspelt one', async () => {
      const error = await gatewayErrorOfAsync(() =>
        parse('providers: { ollama: { type: mock } }\nmodels:\n  - { id: b, provider: olama }'),
      );
      expect(error.message).toContain(
        "models[0].provider is 'olama', which is not defined under 'providers'. Did you mean 'ollama'? Use one of: mock, ollama",
      );
    });

    it('should reject unknown keys, so a typo is not silently ignored, suggesting the known one', async () => {
      const error = await gatewayErrorOfAsync(() => parse('modles: []'));
      expect(error.code).toBe('CONFIG_FILE_INVALID');
      expect(error.message).toBe(
        "switchyard.yaml has an invalid field:\n  (top level) has an unknown field 'modles'. Did you mean 'models'?",
      );
    });

    it('should reject a port out of range with its path', async () => {
      const error = await gatewayErrorOfAsync(() => parse('server: { port: 70000 }'));
      expect(error.param).toBe('server.port');
      expect(error.message).toContain('server.port must be a port number 0–65535 (got 70000)');
    });

    it('should say what a port must be when it is not a number', async () => {
      const error = await gatewayErrorOfAsync(() => parse('server: { port: eighty }'));
      expect(error).toMatchObject({ code: 'CONFIG_FILE_INVALID', param: 'server.port' });
      expect(error.message).toBe("switchyard.yaml has an invalid field:\n  server.port must be a port number 0–65535 (got 'eighty')");
    });

    it('should say what each field must be, with the value it got', async () => {
      const error = await gatewayErrorOfAsync(() =>
        parse(
          'server: { shutdownTimeoutMs: soon }\ndiagnoseBaseUrl: yes please\nbodyLimit: huge\nlimits: { whenStoreDown: shut }\nmodels: []',
        ),
      );
      expect(error.message.split('\n').slice(1)).toEqual([
        "  server.shutdownTimeoutMs must be a number (got 'soon')",
        '  models must have at least 1 item',
        "  bodyLimit must be a number of bytes, or a size like '32mb'",
        "  diagnoseBaseUrl must be true or false (got 'yes please')",
        "  limits.whenStoreDown must be one of 'open', 'closed' (got 'shut')",
      ]);
    });

    it('should take a give-back wait for the Redis limits up to a second, and refuse a longer one', async () => {
      expect((await parse('limits:\n  givebackWaitMs: 250')).gateway.limits?.givebackWaitMs).toBe(250);
      const error = await gatewayErrorOfAsync(() => parse('limits:\n  givebackWaitMs: 5000'));
      expect(error).toMatchObject({ code: 'CONFIG_FILE_INVALID', param: 'limits.givebackWaitMs' });
    });

    it('should take a burst on rate limits, and refuse one above the limit it goes with, saying why', async () => {
      const loaded = await parse(
        'limits:\n  perKey: { requestsPerMinute: 50, burst: { requests: 1 } }\nmodels:\n  - { id: m, provider: mock, limits: { tokensPerMinute: 1000, burst: { tokens: 200 } } }',
      );
      expect(loaded.gateway.limits?.perKey?.burst).toEqual({ requests: 1 });
      expect(loaded.gateway.models?.[0]?.limits?.burst).toEqual({ tokens: 200 });
      const error = await gatewayErrorOfAsync(() => parse('limits:\n  keys:\n    ci: { requestsPerMinute: 50, burst: { requests: 60 } }'));
      expect(error).toMatchObject({ code: 'CONFIG_FILE_INVALID', param: 'limits.keys.ci.burst.requests' });
      expect(error.message).toContain(
        "burst.requests (60) is more than requestsPerMinute (50): a burst is the part of a minute's allowance that may be spent at once",
      );
      expect((await gatewayErrorOfAsync(() => parse('limits:\n  perKey: { burst: { requests: 0 } }'))).param).toBe(
        'limits.perKey.burst.requests',
      );
      expect((await gatewayErrorOfAsync(() => parse('limits:\n  perKey: { burst: { calls: 3 } }'))).code).toBe('CONFIG_FILE_INVALID');
    });

    it('should reject a bad built-in provider option with its path', async () => {
      const error = await gatewayErrorOfAsync(() => parse('providers:\n  fast: { type: mock, chunks: -1 }'));
      expect(error.code).toBe('CONFIG_PROVIDER_INVALID');
      expect(error.message).toContain('providers.fast.chunks');
    });

    it('should reject a provider type that is not built in', async () => {
      const error = await gatewayErrorOfAsync(() => parse('providers:\n  x: { type: nonsense }'));
      expect(error.code).toBe('CONFIG_UNKNOWN_PROVIDER_TYPE');
    });

    it('should report YAML syntax errors with the file name', async () => {
      const error = await gatewayErrorOfAsync(() => parse('models: [\n  { id: a'));
      expect(error.code).toBe('CONFIG_FILE_SYNTAX');
      expect(error.message).toContain('switchyard.yaml');
    });

    it('should report JSON syntax errors', async () => {
      expect((await gatewayErrorOfAsync(() => parse('{"models": [', {}, 'config.json'))).code).toBe('CONFIG_FILE_SYNTAX');
    });
  });
});

describe('loadConfig', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-config-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('should read and validate a file', async () => {
    const path = join(dir, 'switchyard.yaml');
    await writeFile(path, 'apiKeys: ["${K}"]\nmodels: [{ id: mock, provider: mock }]\n');
    expect((await loadConfig(path, { K: 'sk-file' })).gateway).toEqual({
      apiKeys: ['sk-file'],
      models: [{ id: 'mock', provider: 'mock' }],
    });
  });

  it('should say which file it cannot read', async () => {
    const error = await gatewayErrorOfAsync(() => loadConfig(join(dir, 'missing.yaml'), {}));
    expect(error.code).toBe('CONFIG_FILE_UNREADABLE');
    expect(error.message).toContain('missing.yaml');
  });
});
