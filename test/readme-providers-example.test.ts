import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gateway } from '../src/gateway/gateway.js';
import { silentLogger } from '../src/logger.js';
import { parseConfigText } from '../src/server/load-config.js';

// The example lives in the guide's providers page (docs/providers-and-catalog.md).
const page = readFileSync(join(import.meta.dirname, '..', 'docs', 'providers-and-catalog.md'), 'utf8');
const block = /<!-- providers-example:start -->\s*```yaml\n([\s\S]*?)```\s*<!-- providers-example:end -->/.exec(page)?.[1];
const env = { OPENAI_API_KEY: 'sk-o', AZURE_OPENAI_API_KEY: 'az', ANTHROPIC_API_KEY: 'sk-a', GEMINI_API_KEY: 'AIza' };

describe("docs/providers-and-catalog.md's provider configuration example", () => {
  it('should be present between its markers', () => {
    expect(block).toBeDefined();
  });

  it('should load with the config loader and build a gateway serving every model it lists', async () => {
    const config = parseConfigText(`apiKeys: [k]\n${block ?? ''}`, 'docs/providers-and-catalog.md', env);
    const router = gateway({ ...config.gateway, logger: silentLogger });
    expect(typeof router).toBe('function');
    expect(config.gateway.models?.map((model) => model.id)).toEqual([
      'gpt-5.4-mini',
      'gpt-5.4',
      'gpt-4o-azure',
      'claude-sonnet-4-6',
      'gemini-2.5-flash',
      'llama3.2',
    ]);
    expect(Object.keys(config.gateway.providers ?? {})).toEqual(['openai', 'openai-responses', 'azure', 'anthropic', 'gemini', 'ollama']);
  });
});
