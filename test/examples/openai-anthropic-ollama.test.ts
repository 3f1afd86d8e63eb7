import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/canonical/index.js';
import { DEFAULT_MOCK_REPLY } from '../../src/providers/mock/index.js';
import { loadConfig } from '../../src/server/load-config.js';
import { cleanEnv, projectRoot, readBanner, spawnCli } from '../server/spawn-cli.js';

const configPath = join(projectRoot, 'examples/openai-anthropic-ollama/switchyard.yaml');
const dummyEnv = { SWITCHYARD_API_KEY: 'sk-gateway-dummy', OPENAI_API_KEY: 'sk-openai-dummy', ANTHROPIC_API_KEY: 'sk-ant-dummy' };

describe('examples/openai-anthropic-ollama', () => {
  it('should load and validate with the CLI loader, filling the secrets from the environment', async () => {
    const config = await loadConfig(configPath, dummyEnv);
    expect(config.server).toEqual({ port: 8787, host: '127.0.0.1' });
    expect(config.gateway.apiKeys).toEqual(['sk-gateway-dummy']);
    expect(config.gateway.providers).toEqual({
      openai: { apiKey: 'sk-openai-dummy' },
      anthropic: { apiKey: 'sk-ant-dummy' },
      ollama: { type: 'openai-compatible', profile: 'ollama', baseURL: 'http://localhost:11434/v1' },
    });
    expect(config.gateway.models?.map((model) => `${model.provider}/${model.id}`)).toEqual([
      'openai/gpt-5.4-mini',
      'anthropic/claude-sonnet-4-6',
      'anthropic/claude-haiku-4-5',
      'ollama/llama3.2',
      'mock/mock',
    ]);
  });

  it('should take the Ollama URL from OLLAMA_BASE_URL when it is set', async () => {
    const config = await loadConfig(configPath, { ...dummyEnv, OLLAMA_BASE_URL: 'http://gpu-box:11434/v1' });
    expect(config.gateway.providers?.ollama).toMatchObject({ baseURL: 'http://gpu-box:11434/v1' });
  });

  it('should refuse to load without a secret it references, naming the variable', async () => {
    const error = await loadConfig(configPath, { ...dummyEnv, OPENAI_API_KEY: '' }).catch((caught: unknown) => caught);
    expect(GatewayError.isInstance(error) && error.code).toBe('CONFIG_ENV_MISSING');
    expect(String((error as Error).message)).toContain('OPENAI_API_KEY');
  });

  it('should start the server from the file, list its models, answer on the mock model, and stop', async () => {
    const child = spawnCli(['serve', '--config', configPath, '--port', '0'], cleanEnv(dummyEnv));
    try {
      const banner = await readBanner(child);
      const headers = { authorization: 'Bearer sk-gateway-dummy', 'content-type': 'application/json' };
      const models = (await (await fetch(`${banner.openAIBaseURL}/models`, { headers })).json()) as { data: Array<{ id: string }> };
      expect(models.data.map((model) => model.id)).toEqual(['gpt-5.4-mini', 'claude-sonnet-4-6', 'claude-haiku-4-5', 'llama3.2', 'mock']);
      const response = await fetch(`${banner.openAIBaseURL}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: 'mock', messages: [{ role: 'user', content: 'Hello' }] }),
      });
      expect(((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content).toBe(
        DEFAULT_MOCK_REPLY,
      );
    } finally {
      expect((await child.stop()).code).toBe(0);
    }
  });
});
