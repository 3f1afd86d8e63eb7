import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { GENAI_PRICES } from '../../src/catalog/index.js';
import { parseCliArgs } from '../../src/server/parse-cli-args.js';
import { runModelsCommand } from '../../src/server/models-command.js';
import { GatewayError } from '../../src/canonical/index.js';
import { useScratch } from '../helpers/scratch.js';
import { cleanEnv, spawnCli } from './spawn-cli.js';

const scratch = useScratch();

const config = `providers:
  openai: { apiKey: sk-dummy }
  anthropic: { apiKey: sk-ant-dummy }
  local: { type: openai-compatible, profile: ollama }
models:
  - { id: via-chat, provider: openai, upstreamModel: gpt-4.1-mini-2025-04-14 }
  - { id: via-anthropic, provider: anthropic, upstreamModel: claude-sonnet-4-5 }
  - { id: llama, provider: local, upstreamModel: "llama3.2:3b" }
  - { id: mine, provider: openai, upstreamModel: my-tune, contextWindow: 32000, price: { input: 1, output: 2 } }
  - { id: mock, provider: mock }
`;

async function configFile(): Promise<string> {
  const path = scratch.file('models.yaml');
  await writeFile(path, config);
  return path;
}

/** Runs `switchyard models …` in process; returns what it printed. */
async function run(argv: string[], env: NodeJS.ProcessEnv = cleanEnv()): Promise<string> {
  const command = parseCliArgs(argv);
  if (command.command !== 'models') throw new Error(`parsed as ${command.command}`);
  let out = '';
  await runModelsCommand(command, env, (text) => void (out += text));
  return out;
}

/** The table's row for `id`, split on the two-space column gaps. */
function row(table: string, id: string): string[] {
  const line = table.split('\n').find((text) => text.startsWith(`${id} `)) ?? '';
  return line.split(/ {2,}/);
}

describe('switchyard models', () => {
  it('should print each configured model with its window, largest output, capabilities and prices', async () => {
    const table = await run(['models', '--config', await configFile()]);
    expect(table).toMatch(/^ID\s+PROVIDER\s+UPSTREAM\s+WINDOW\s+MAX OUTPUT\s+CAPABILITIES\s+PRICE \(USD \/ 1M TOKENS\)\s+PRICE SOURCE\n/);
    expect(row(table, 'via-chat')).toEqual([
      'via-chat',
      'openai',
      'gpt-4.1-mini-2025-04-14',
      '1,047,576',
      '32,768',
      'tools images files json hosted:chat',
      'in $0.4 · out $1.6 · cached $0.1',
      `genai-prices@${GENAI_PRICES.version}, as of ${GENAI_PRICES.publishedOn}`,
    ]);
    expect(row(table, 'via-anthropic')).toEqual([
      'via-anthropic',
      'anthropic',
      'claude-sonnet-4-5',
      '200,000',
      '64,000',
      'tools images files reasoning(budget) json hosted:messages',
      'in $3 · out $15 · cached $0.3 · write $3.75 (1h $6) · above 200,000: in $6 out $22.5',
      `genai-prices@${GENAI_PRICES.version}, as of ${GENAI_PRICES.publishedOn}`,
    ]);
    // A model on your own server: known to the catalog, no price.
    expect(row(table, 'llama').slice(3)).toEqual(['131,072', '-', 'tools json hosted:chat', '-', '-']);
    // The config's figures win; what nobody knows is '-'.
    expect(row(table, 'mine').slice(3)).toEqual([
      '32,000',
      '-',
      'tools images files reasoning json hosted:chat',
      'in $1 · out $2',
      'config',
    ]);
    expect(row(table, 'mock').slice(3, 5)).toEqual(['-', '-']);
    expect(table).toContain('- = not known');
  });

  it('should print the /v1/models entries as JSON for scripts', async () => {
    const listed = JSON.parse(await run(['models', '--json', '--config', await configFile()])) as Array<Record<string, unknown>>;
    expect(listed.map((model) => model.id)).toEqual(['via-chat', 'via-anthropic', 'llama', 'mine', 'mock']);
    expect(listed[0]).toMatchObject({
      provider: 'openai',
      upstream_model: 'gpt-4.1-mini-2025-04-14',
      context_window: 1_047_576,
      pricing: { input: 0.4, as_of: GENAI_PRICES.publishedOn },
    });
  });

  it('should list the zero-config models without a config file', async () => {
    const listed = JSON.parse(await run(['models', '--json'], cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-dummy' }))) as Array<{
      id: string;
      context_window?: number;
    }>;
    expect(listed.map((model) => model.id)).toEqual(['mock', 'claude-sonnet-4-6', 'claude-opus-4-6', 'claude-haiku-4-5']);
    expect(listed[3]?.context_window).toBe(200_000);
  });

  it('should refuse flags it does not take', () => {
    expect(() => parseCliArgs(['models', '--port', '1'])).toThrow(GatewayError);
    expect(() => parseCliArgs(['models', 'extra'])).toThrow(/'models' takes only --config FILE and --json/);
  });

  it('should run as a command of the CLI', async () => {
    const child = spawnCli(['models', '--config', await configFile()], cleanEnv());
    expect((await child.exited).code).toBe(0);
    expect(child.stdout()).toMatch(/^via-anthropic\s+anthropic\s+claude-sonnet-4-5\s+200,000\s+64,000/m);
    expect(child.stderr()).toBe('');
  });
});
