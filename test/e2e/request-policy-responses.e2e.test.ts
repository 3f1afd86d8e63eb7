import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { createOpenAIResponsesProvider } from '../../src/providers/openai-responses/index.js';
import { jsonFixture, sseFixture } from '../helpers/fixtures.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

/** Shaped like Codex CLI: a function tool and the hosted web_search, store:false. */
const codexTools = [
  {
    type: 'function' as const,
    name: 'shell',
    description: 'Runs a command',
    strict: false,
    parameters: { type: 'object', properties: {} },
  },
  { type: 'web_search' as const },
];
const mcpTool = {
  type: 'mcp' as const,
  server_label: 'exfil',
  server_url: 'https://attacker.example/mcp',
  require_approval: 'never' as const,
};

let upstream: MockUpstream;
const running: RunningGateway[] = [];

async function serve(options: GatewayOptions = {}): Promise<OpenAI> {
  const gateway = await startGateway({
    providers: { openai: createOpenAIResponsesProvider({ apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1` }) },
    models: [{ id: 'gpt', provider: 'openai', upstreamModel: 'gpt-5' }],
    ...options,
  });
  running.push(gateway);
  return new OpenAI({ apiKey: TEST_KEY, baseURL: gateway.openAIBaseURL, maxRetries: 0 });
}

beforeAll(async () => {
  upstream = await startMockUpstream();
});
afterAll(async () => {
  for (const gateway of running) await gateway.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
  upstream.reply({ json: jsonFixture('responses', 'upstream-response') });
});

const sent = () => upstream.requests.at(-1)?.body as Record<string, unknown>;
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as InstanceType<typeof OpenAI.APIError>,
  );

describe('request policy on Responses', () => {
  describe('the default policy', () => {
    it('should strip service_tier and send store: false whatever the caller asked', async () => {
      const client = await serve();
      await client.responses.create({ model: 'gpt', input: 'Hi', service_tier: 'priority', store: true });
      expect(sent()).not.toHaveProperty('service_tier');
      expect(sent().store).toBe(false);
    });

    it('should strip them on a passed-through stream too', async () => {
      upstream.reply({ sse: sseFixture('responses', 'upstream-text') });
      const client = await serve();
      await client.responses.stream({ model: 'gpt', input: 'Hi', service_tier: 'priority', store: true }).finalResponse();
      expect(sent().stream).toBe(true);
      expect(sent()).not.toHaveProperty('service_tier');
      expect(sent().store).toBe(false);
    });

    it('should serve a Codex request without its web_search tool, keeping its functions', async () => {
      upstream.reply({ sse: sseFixture('responses', 'upstream-text') });
      const client = await serve();
      const final = await client.responses
        .stream({
          model: 'gpt',
          input: 'Fix the test',
          tools: codexTools,
          tool_choice: 'auto',
          parallel_tool_calls: true,
          store: false,
          include: ['reasoning.encrypted_content'],
        })
        .finalResponse();
      expect(final.status).toBe('completed');
      expect((sent().tools as Array<{ type: string }>).map((tool) => tool.type)).toEqual(['function']);
    });

    it('should refuse background with a 400 naming it', async () => {
      const client = await serve();
      const error = await failureOf(client.responses.create({ model: 'gpt', input: 'Hi', background: true }));
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error?.code).toBe('request_policy_refused');
      expect(error?.param).toBe('background');
      expect(upstream.requests).toHaveLength(0);
    });

    it('should refuse a hosted mcp tool with a server_url, naming the tool and the setting that allows it', async () => {
      const client = await serve();
      const error = await failureOf(client.responses.create({ model: 'gpt', input: 'Hi', tools: [mcpTool] }));
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error?.code).toBe('request_policy_refused');
      expect(error?.param).toBe('tools');
      expect(error?.message).toContain("'mcp' tool");
      expect(error?.message).toContain("requestPolicy.tools['mcp']: 'allow'");
      expect(upstream.requests).toHaveLength(0);
    });

    it('should refuse a tool_choice that forces a stripped hosted tool', async () => {
      const client = await serve();
      const error = await failureOf(
        client.responses.create({
          model: 'gpt',
          input: 'Hi',
          tools: [{ type: 'web_search_preview' }],
          tool_choice: { type: 'web_search_preview' },
        }),
      );
      expect(error?.code).toBe('request_policy_refused');
      expect(error?.param).toBe('tool_choice');
      expect(upstream.requests).toHaveLength(0);
    });

    it('should refuse code_interpreter and file_search', async () => {
      const client = await serve();
      const interpreter = await failureOf(
        client.responses.create({ model: 'gpt', input: 'Hi', tools: [{ type: 'code_interpreter', container: { type: 'auto' } }] }),
      );
      expect(interpreter?.message).toContain("'code_interpreter' tool");
      const search = await failureOf(
        client.responses.create({ model: 'gpt', input: 'Hi', tools: [{ type: 'file_search', vector_store_ids: ['vs_operator'] }] }),
      );
      expect(search?.message).toContain("'file_search' tool");
      expect(upstream.requests).toHaveLength(0);
    });
  });

  describe('allowing', () => {
    it('should pass web_search, mcp, background, store and service_tier on when the gateway allows them, and only then', async () => {
      const client = await serve({
        requestPolicy: {
          tools: { web_search: 'allow', mcp: 'allow' },
          fields: { background: 'allow', store: 'allow', service_tier: 'allow' },
        },
      });
      await client.responses.create({
        model: 'gpt',
        input: 'Hi',
        tools: [...codexTools, mcpTool],
        background: true,
        store: true,
        service_tier: 'priority',
      });
      expect(sent()).toMatchObject({ background: true, store: true, service_tier: 'priority' });
      expect((sent().tools as Array<{ type: string }>).map((tool) => tool.type)).toEqual(['function', 'web_search', 'mcp']);

      const strict = await serve({ requestPolicy: { tools: { mcp: 'allow' } } });
      await strict.responses.create({ model: 'gpt', input: 'Hi', tools: [...codexTools, mcpTool], store: true });
      expect(sent().store).toBe(false);
      expect((sent().tools as Array<{ type: string }>).map((tool) => tool.type)).toEqual(['function', 'mcp']);
    });
  });

  describe('maxOutputTokens', () => {
    it('should lower max_output_tokens to the cap', async () => {
      const client = await serve({ requestPolicy: { maxOutputTokens: 2048 } });
      await client.responses.create({ model: 'gpt', input: 'Hi', max_output_tokens: 100000 });
      expect(sent().max_output_tokens).toBe(2048);
    });
  });
});
