import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { createAnthropicProvider } from '../../src/providers/anthropic/index.js';
import { sseFixture } from '../helpers/fixtures.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

const message = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-x',
  content: [{ type: 'text', text: 'ok' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 3, output_tokens: 1 },
};
const hello = [{ role: 'user' as const, content: 'Hello' }];
/** What Claude Code sends on its main requests (no 1M context, no fast mode). */
const claudeCodeBetas =
  'claude-code-20250219,interleaved-thinking-2025-05-14,redact-thinking-2026-02-12,context-management-2025-06-27,prompt-caching-scope-2026-01-05,advanced-tool-use-2025-11-20,effort-2025-11-24,extended-cache-ttl-2025-04-11,fine-grained-tool-streaming-2025-05-14';

let upstream: MockUpstream;
const running: RunningGateway[] = [];

/** Messages endpoints in front of the recording upstream; `claude-1m` has a policy of its own. */
async function serve(options: GatewayOptions = {}): Promise<{ client: Anthropic; root: string }> {
  const gateway = await startGateway({
    providers: { anthropic: createAnthropicProvider({ apiKey: 'upstream-key', baseURL: upstream.url }) },
    models: [
      { id: 'claude', provider: 'anthropic', upstreamModel: 'claude-x' },
      {
        id: 'claude-1m',
        provider: 'anthropic',
        upstreamModel: 'claude-x',
        requestPolicy: { anthropicBetas: { 'context-1m-*': 'allow' }, fields: { mcp_servers: 'allow', speed: 'allow' } },
      },
    ],
    ...options,
  });
  running.push(gateway);
  return { client: new Anthropic({ apiKey: TEST_KEY, baseURL: gateway.root, maxRetries: 0 }), root: gateway.root };
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
  upstream.reply({ json: message });
});

const last = () => upstream.requests.at(-1)!;
const sent = () => last().body as Record<string, unknown>;
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as InstanceType<typeof Anthropic.APIError>,
  );
const mcpServers = [{ type: 'url' as const, url: 'https://attacker.example/mcp', name: 'exfil' }];

describe('request policy on Messages', () => {
  describe('the default policy', () => {
    it('should refuse mcp_servers with an Anthropic 400 that names it and says the operator can allow it', async () => {
      const { client } = await serve();
      const error = await failureOf(
        client.beta.messages.create({ model: 'claude', max_tokens: 10, messages: hello, mcp_servers: mcpServers }),
      );
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect(error?.status).toBe(400);
      expect((error?.error as { error: { type: string } }).error.type).toBe('invalid_request_error');
      expect(error?.message).toContain("'mcp_servers'");
      expect(error?.message).toContain("requestPolicy.fields['mcp_servers']: 'allow'");
      expect(error?.requestID).toMatch(/^req_/);
      expect(upstream.requests).toHaveLength(0);
    });

    it('should refuse container', async () => {
      const { client } = await serve();
      const error = await failureOf(
        client.messages.create({ model: 'claude', max_tokens: 10, messages: hello, container: 'container_operator' } as never),
      );
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect(error?.message).toContain("'container'");
      expect(upstream.requests).toHaveLength(0);
    });

    it('should strip service_tier and speed, on a passed-through stream too', async () => {
      const { client } = await serve();
      await client.messages.create({ model: 'claude', max_tokens: 10, messages: hello, service_tier: 'auto', speed: 'fast' } as never);
      expect(sent()).not.toHaveProperty('service_tier');
      expect(sent()).not.toHaveProperty('speed');

      upstream.reply({ sse: sseFixture('messages', 'upstream-text') });
      await client.messages.stream({ model: 'claude', max_tokens: 10, messages: hello, service_tier: 'auto' }).finalMessage();
      expect(sent().stream).toBe(true);
      expect(sent()).not.toHaveProperty('service_tier');
    });

    it('should strip the web_search server tool and refuse web_fetch and code_execution', async () => {
      const { client } = await serve();
      const lookup = { name: 'lookup', input_schema: { type: 'object' as const, properties: {} } };
      await client.messages.create({
        model: 'claude',
        max_tokens: 10,
        messages: hello,
        tools: [lookup, { type: 'web_search_20250305', name: 'web_search' }],
      });
      expect(sent().tools).toEqual([lookup]);

      const fetch = await failureOf(
        client.beta.messages.create({
          model: 'claude',
          max_tokens: 10,
          messages: hello,
          tools: [{ type: 'web_fetch_20250910', name: 'web_fetch' }],
        }),
      );
      expect(fetch?.message).toContain("'web_fetch_20250910' tool");
      const code = await failureOf(
        client.beta.messages.create({
          model: 'claude',
          max_tokens: 10,
          messages: hello,
          tools: [{ type: 'code_execution_20250825', name: 'code_execution' }],
        }),
      );
      expect(code?.message).toContain("requestPolicy.tools['code_execution']");
      expect(upstream.requests).toHaveLength(1);
    });

    it("should pass Claude Code's betas and body on unchanged, and leave out the 1M-context, fast-mode and unknown betas", async () => {
      upstream.reply({ sse: sseFixture('messages', 'upstream-text') });
      const { client } = await serve();
      await client.messages
        .stream(
          {
            model: 'claude',
            max_tokens: 32000,
            messages: hello,
            thinking: { type: 'adaptive' } as never,
            metadata: { user_id: 'user_abc_account_def_session_ghi' },
            context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
          } as never,
          {
            headers: {
              'anthropic-beta': `${claudeCodeBetas},context-1m-2025-08-07,fast-mode-2026-02-01,oauth-2025-04-20,made-up-2030-01-01`,
            },
          },
        )
        .finalMessage();
      expect(last().headers['anthropic-beta']).toBe(claudeCodeBetas);
      expect(sent()).toMatchObject({
        max_tokens: 32000,
        metadata: { user_id: 'user_abc_account_def_session_ghi' },
        context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
      });
    });

    it('should send no anthropic-beta at all when every value the caller sent is stripped', async () => {
      const { client } = await serve();
      await client.messages.create(
        { model: 'claude', max_tokens: 10, messages: hello },
        { headers: { 'anthropic-beta': 'context-1m-2025-08-07' } },
      );
      expect(last().headers).not.toHaveProperty('anthropic-beta');
    });
  });

  describe('allowing and refusing', () => {
    it('should let a model whose policy allows them pass mcp_servers, speed and the 1M-context beta', async () => {
      const { client } = await serve();
      await client.beta.messages.create(
        { model: 'claude-1m', max_tokens: 10, messages: hello, mcp_servers: mcpServers, speed: 'fast' } as never,
        { headers: { 'anthropic-beta': 'context-1m-2025-08-07,mcp-client-2025-04-04' } },
      );
      expect(sent()).toMatchObject({ mcp_servers: mcpServers, speed: 'fast' });
      expect(last().headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    });

    it('should answer 400 for a beta the operator refuses', async () => {
      const { client } = await serve({ requestPolicy: { anthropicBetas: { 'files-api-*': 'refuse' } } });
      const error = await failureOf(
        client.messages.create(
          { model: 'claude', max_tokens: 10, messages: hello },
          { headers: { 'anthropic-beta': 'files-api-2025-04-14' } },
        ),
      );
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect(error?.message).toContain("anthropic-beta 'files-api-2025-04-14'");
      expect(upstream.requests).toHaveLength(0);
    });

    it("should let a key's override allow every beta with '*', but not the priced ones named in the default", async () => {
      const { client } = await serve({ requestPolicy: { keys: { options: { anthropicBetas: { '*': 'allow' } } } } });
      await client.messages.create(
        { model: 'claude', max_tokens: 10, messages: hello },
        { headers: { 'anthropic-beta': 'made-up-2030-01-01,context-1m-2025-08-07' } },
      );
      expect(last().headers['anthropic-beta']).toBe('made-up-2030-01-01');
    });
  });

  describe('maxOutputTokens', () => {
    it('should lower max_tokens to the cap and scale a thinking budget with it, so the provider is never asked for more', async () => {
      upstream.reply({ sse: sseFixture('messages', 'upstream-text') });
      const { client } = await serve({ requestPolicy: { maxOutputTokens: 16000 } });
      await client.messages
        .stream({ model: 'claude', max_tokens: 32000, thinking: { type: 'enabled', budget_tokens: 31999 }, messages: hello })
        .finalMessage();
      expect(sent().max_tokens).toBe(16000);
      expect(sent().thinking).toEqual({ type: 'enabled', budget_tokens: 15999 });
    });
  });

  describe('count_tokens', () => {
    it('should refuse mcp_servers and leave out stripped betas and fields there too', async () => {
      upstream.reply({ json: { input_tokens: 7 } });
      const { client } = await serve();
      const refused = await failureOf(client.beta.messages.countTokens({ model: 'claude', messages: hello, mcp_servers: mcpServers }));
      expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
      expect(upstream.requests).toHaveLength(0);

      const counted = await client.messages.countTokens({ model: 'claude', messages: hello, speed: 'fast' } as never, {
        headers: { 'anthropic-beta': 'context-1m-2025-08-07,token-efficient-tools-2025-02-19' },
      });
      expect(counted.input_tokens).toBe(7);
      expect(last().url).toBe('/v1/messages/count_tokens');
      expect(sent()).not.toHaveProperty('speed');
      expect(last().headers['anthropic-beta']).toBe('token-efficient-tools-2025-02-19');
    });
  });
});
