import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { createOpenAIProvider } from '../../src/providers/openai/index.js';
import { sseFixture } from '../helpers/fixtures.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

const completion = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1730000000,
  model: 'gpt-4o',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
};
const hello = [{ role: 'user' as const, content: 'Hello' }];

let upstream: MockUpstream;
const running: RunningGateway[] = [];

/** A gateway whose models `gpt` (no policy of its own) and `gpt-open` (`open`) call the recording upstream. */
async function serve(
  options: GatewayOptions = {},
  open: NonNullable<GatewayOptions['models']>[number]['requestPolicy'] = {},
): Promise<OpenAI> {
  const gateway = await startGateway({
    providers: { openai: createOpenAIProvider({ apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1` }) },
    models: [
      { id: 'gpt', provider: 'openai', upstreamModel: 'gpt-4o' },
      { id: 'gpt-open', provider: 'openai', upstreamModel: 'gpt-4o', requestPolicy: open },
    ],
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
  upstream.reply({ json: completion });
});

const sent = () => upstream.requests.at(-1)?.body as Record<string, unknown>;
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as InstanceType<typeof OpenAI.APIError>,
  );

describe('request policy on Chat Completions', () => {
  describe('the default policy', () => {
    it('should strip service_tier and store, and keep logit_bias', async () => {
      const client = await serve();
      const answer = await client.chat.completions.create({
        model: 'gpt',
        messages: hello,
        service_tier: 'priority',
        store: true,
        logit_bias: { '50256': -100 },
      });
      expect(answer.choices[0]?.message.content).toBe('ok');
      expect(sent()).not.toHaveProperty('service_tier');
      expect(sent()).not.toHaveProperty('store');
      expect(sent().logit_bias).toEqual({ '50256': -100 });
    });

    it('should strip them on a stream too (same-protocol relay)', async () => {
      upstream.reply({ sse: sseFixture('chat-completions', 'upstream-text') });
      const client = await serve();
      const stream = await client.chat.completions.create({
        model: 'gpt',
        messages: hello,
        stream: true,
        service_tier: 'priority',
        store: true,
      });
      for await (const _chunk of stream) {
        // drain
      }
      expect(sent().stream).toBe(true);
      expect(sent()).not.toHaveProperty('service_tier');
      expect(sent()).not.toHaveProperty('store');
    });

    it('should refuse n above 1 with a 400 naming n, and never call the upstream', async () => {
      const client = await serve();
      const error = await failureOf(client.chat.completions.create({ model: 'gpt', messages: hello, n: 128 }));
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error?.code).toBe('request_policy_over_cap');
      expect(error?.param).toBe('n');
      expect(error?.message).toContain('requestPolicy.maxChoices');
      expect(upstream.requests).toHaveLength(0);
    });

    it('should refuse web_search_options with a 400 that names it and says the operator can allow it', async () => {
      const client = await serve();
      const error = await failureOf(client.chat.completions.create({ model: 'gpt', messages: hello, web_search_options: {} }));
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error?.status).toBe(400);
      expect(error?.code).toBe('request_policy_refused');
      expect(error?.param).toBe('web_search_options');
      expect(error?.message).toContain("'web_search_options'");
      expect(error?.message).toContain('operator');
      expect(error?.message).toContain("requestPolicy.fields['web_search_options']: 'allow'");
      expect(error?.requestID).toMatch(/^req_/);
      expect(upstream.requests).toHaveLength(0);
    });
  });

  describe('allowing', () => {
    it('should let a model whose policy allows them pass the fields and up to its maxChoices, while another model keeps the default', async () => {
      const client = await serve({}, { fields: { service_tier: 'allow', store: 'allow', web_search_options: 'allow' }, maxChoices: 4 });
      await client.chat.completions.create({
        model: 'gpt-open',
        messages: hello,
        n: 4,
        service_tier: 'priority',
        store: true,
        web_search_options: {},
      });
      expect(sent()).toMatchObject({ n: 4, service_tier: 'priority', store: true, web_search_options: {} });

      await client.chat.completions.create({ model: 'gpt', messages: hello, service_tier: 'priority' });
      expect(sent()).not.toHaveProperty('service_tier');
      const error = await failureOf(client.chat.completions.create({ model: 'gpt-open', messages: hello, n: 5 }));
      expect(error?.code).toBe('request_policy_over_cap');
    });

    it('should let the gateway policy allow a field for every model', async () => {
      const client = await serve(
        { requestPolicy: { fields: { service_tier: 'allow' }, maxChoices: 2 } },
        { fields: { service_tier: 'strip' } },
      );
      await client.chat.completions.create({ model: 'gpt', messages: hello, n: 2, service_tier: 'flex' });
      expect(sent()).toMatchObject({ n: 2, service_tier: 'flex' });
      // The model's own policy wins over the gateway's.
      await client.chat.completions.create({ model: 'gpt-open', messages: hello, service_tier: 'flex' });
      expect(sent()).not.toHaveProperty('service_tier');
    });

    it("should let a key's override (the keys from apiKeys are 'options') win over the model's policy", async () => {
      const client = await serve(
        { requestPolicy: { keys: { options: { fields: { store: 'allow' } } } } },
        { fields: { store: 'refuse', service_tier: 'refuse' } },
      );
      await client.chat.completions.create({ model: 'gpt-open', messages: hello, store: true });
      expect(sent().store).toBe(true);
      // Field by field: what the key's override does not name, the model's policy still decides.
      const error = await failureOf(client.chat.completions.create({ model: 'gpt-open', messages: hello, service_tier: 'priority' }));
      expect(error?.param).toBe('service_tier');
    });
  });

  describe('maxOutputTokens', () => {
    it('should lower a larger max_completion_tokens to the cap, and send the cap when none is set', async () => {
      const client = await serve({ requestPolicy: { maxOutputTokens: 1000 } });
      await client.chat.completions.create({ model: 'gpt', messages: hello, max_completion_tokens: 5000 });
      expect(sent().max_completion_tokens).toBe(1000);
      await client.chat.completions.create({ model: 'gpt', messages: hello });
      expect(sent().max_completion_tokens).toBe(1000);
      await client.chat.completions.create({ model: 'gpt', messages: hello, max_tokens: 200 });
      expect(sent().max_completion_tokens).toBe(200);
    });
  });
});
