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
      models: [{ id: 'fast', provider: 'fast', aliases: ['quick'], upstreamModel: 'fast-1', ownedBy: 'me', capabilities: { tools: false } }],
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

  describe('invalid fields', () => {
    it('should give the path of a bad model field, e.g. models[1].provider', async () => {
      const error = await gatewayErrorOfAsync(() => parse('models:\n  - { id: a, provider: mock }\n  - { id: b }'));
      expect(error.code).toBe('CONFIG_FILE_INVALID');
      expect(error.param).toBe('models[1].provider');
      expect(error.message).toContain('switchyard.yaml');
      expect(error.message).toContain('models[1].provider');
    });

    it('should reject a model whose provider is not defined, listing the defined ones', async () => {
      const error = await gatewayErrorOfAsync(() => parse('providers: { fast: { type: mock } }\nmodels:\n  - { id: a, provider: mock }\n  - { id: b, provider: olama }'));
      expect(error.param).toBe('models[1].provider');
      expect(error.message).toContain("'olama'");
      expect(error.message).toContain('fast');
    });

    it('should reject unknown keys, so a typo is not silently ignored', async () => {
      const error = await gatewayErrorOfAsync(() => parse('modles: []'));
      expect(error.code).toBe('CONFIG_FILE_INVALID');
      expect(error.message).toContain('modles');
    });

    it('should reject a port out of range with its path', async () => {
      const error = await gatewayErrorOfAsync(() => parse('server: { port: 70000 }'));
      expect(error.param).toBe('server.port');
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
    expect((await loadConfig(path, { K: 'sk-file' })).gateway).toEqual({ apiKeys: ['sk-file'], models: [{ id: 'mock', provider: 'mock' }] });
  });

  it('should say which file it cannot read', async () => {
    const error = await gatewayErrorOfAsync(() => loadConfig(join(dir, 'missing.yaml'), {}));
    expect(error.code).toBe('CONFIG_FILE_UNREADABLE');
    expect(error.message).toContain('missing.yaml');
  });
});
