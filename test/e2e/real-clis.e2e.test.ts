import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { PLAIN_ANSWER, startAgentUpstream, TOOL_LOOP_MARKER, type AgentUpstream } from '../helpers/agent-upstream.js';
import { CLAUDE_BIN, CODEX_BIN, runClaudeCode, runCodex, whyCannotRun, type CliRun } from '../helpers/real-cli.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

/**
 * The real Claude Code and Codex CLIs against the gateway, through each kind of upstream, with a
 * configuration that names only `id`, `provider` and `upstreamModel` (the adapt policy must make
 * the CLIs' own hints — thinking, web_search, reasoning — work without any other setting).
 */
const kinds = [
  { id: 'via-chat', provider: 'openai', upstreamModel: 'gpt-4.1-mini' },
  { id: 'via-responses', provider: 'openai-responses', upstreamModel: 'gpt-4.1-mini' },
  { id: 'via-anthropic', provider: 'anthropic', upstreamModel: 'claude-sonnet-4-5' },
  { id: 'via-gemini', provider: 'gemini', upstreamModel: 'gemini-2.5-flash' },
  { id: 'via-vllm', provider: 'vllm', upstreamModel: 'meta-llama/Llama-3.3-70B-Instruct' },
] as const;

const clis = [
  { name: 'Claude Code', bin: CLAUDE_BIN, run: runClaudeCode },
  { name: 'Codex', bin: CODEX_BIN, run: runCodex },
] as const;

/** One CLI run's budget: a cold start of either CLI takes about a second here. */
const RUN_TIMEOUT_MS = 45_000;

const upstreams = new Map<string, AgentUpstream>();
let running: RunningGateway;

beforeAll(async () => {
  for (const kind of kinds) upstreams.set(kind.id, await startAgentUpstream(kind.id));
  const base = (id: string) => upstreams.get(id)!.url;
  const options: GatewayOptions = {
    providers: {
      openai: { apiKey: 'sk-up', baseURL: `${base('via-chat')}/v1` },
      'openai-responses': { apiKey: 'sk-up', baseURL: `${base('via-responses')}/v1` },
      anthropic: { apiKey: 'sk-ant-up', baseURL: base('via-anthropic') },
      gemini: { apiKey: 'gm-up', baseURL: `${base('via-gemini')}/v1beta` },
      vllm: { type: 'openai-compatible', profile: 'vllm', baseURL: `${base('via-vllm')}/v1` },
    },
    models: kinds.map(({ id, provider, upstreamModel }) => ({ id, provider, upstreamModel })),
  };
  running = await startGateway(options);
});
afterAll(async () => {
  await running?.close();
  await Promise.all([...upstreams.values()].map((upstream) => upstream.close()));
});

/** Everything a failed run said, for the assertion message. */
const transcript = (run: CliRun) =>
  `exit ${run.code}\n--- answer\n${run.answer}\n--- stdout\n${run.stdout.slice(-2000)}\n--- stderr\n${run.stderr.slice(-3000)}`;

for (const cli of clis) {
  const reason = whyCannotRun(cli.bin);
  if (reason !== undefined) console.warn(`Skipping the ${cli.name} tests: ${reason}`);

  describe.skipIf(reason !== undefined).concurrent(`${cli.name} (the real CLI) through every kind of upstream`, () => {
    for (const kind of kinds) {
      it(`should answer a plain prompt through ${kind.provider}`, { timeout: RUN_TIMEOUT_MS + 5_000 }, async () => {
        const run = await cli.run({
          gatewayRoot: running.root,
          key: TEST_KEY,
          model: kind.id,
          prompt: 'Say hello.',
          timeoutMs: RUN_TIMEOUT_MS,
        });
        expect(run.answer, transcript(run)).toContain(`${PLAIN_ANSWER} ${kind.id}.`);
        expect(run.code, transcript(run)).toBe(0);
      });

      it(`should run a shell tool the model calls and answer with its output through ${kind.provider}`, {
        timeout: RUN_TIMEOUT_MS + 5_000,
      }, async () => {
        const prompt = `${TOOL_LOOP_MARKER} to compute 6*7, then tell me what it printed.`;
        const run = await cli.run({ gatewayRoot: running.root, key: TEST_KEY, model: kind.id, prompt, timeoutMs: RUN_TIMEOUT_MS });
        expect(run.answer, transcript(run)).toContain(`The tool printed sw-42-ok, says ${kind.id}.`);
        expect(run.code, transcript(run)).toBe(0);
      });
    }
  });
}

describe('the upstreams behind the CLIs', () => {
  it('should have been asked for generations only', () => {
    for (const upstream of upstreams.values()) expect(upstream.problems).toEqual([]);
  });
});
