import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gateway } from '../src/gateway/gateway.js';
import { silentLogger } from '../src/logger.js';
import { parseConfigText } from '../src/server/load-config.js';

// The README's "Configure it" example is a file the server takes as it is.
const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Configure it'));
const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
const env = { SWITCHYARD_API_KEY: 'sk-readme-example-0123456789', OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a' };

describe("README's configuration example", () => {
  it('should load with the config loader and build a gateway serving its models', () => {
    expect(block).toBeDefined();
    const config = parseConfigText(block ?? '', 'README.md', env);
    expect(typeof gateway({ ...config.gateway, logger: silentLogger })).toBe('function');
    expect(config.gateway.models?.map((model) => model.id)).toEqual(['gpt-5.4-mini', 'claude-haiku', 'llama3.2']);
  });
});
