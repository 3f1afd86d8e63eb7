import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { createOpenAIProvider } from '../../src/providers/openai/index.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startGateway, type RunningGateway } from '../helpers/start-gateway.js';
import { useScratch } from '../helpers/scratch.js';

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
beforeAll(async () => {
  upstream = await startMockUpstream();
});
afterAll(() => upstream.close());
beforeEach(() => {
  upstream.requests.length = 0;
  upstream.reply({ json: completion });
});

const scratch = useScratch();
const sent = () => upstream.requests.at(-1)?.body as Record<string, unknown>;
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as InstanceType<typeof OpenAI.APIError>,
  );

/** A gateway with stored keys in `database` whose models `gpt` and `gpt-model` (with `modelPolicy`) call the recording upstream. */
async function serve(
  database: string,
  requestPolicy: GatewayOptions['requestPolicy'],
  modelPolicy?: NonNullable<GatewayOptions['models']>[number]['requestPolicy'],
) {
  const running: RunningGateway = await startGateway({
    database,
    ledger: false,
    providers: { openai: createOpenAIProvider({ apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1` }) },
    models: [
      { id: 'gpt', provider: 'openai', upstreamModel: 'gpt-4o' },
      {
        id: 'gpt-model',
        provider: 'openai',
        upstreamModel: 'gpt-4o',
        ...(modelPolicy === undefined ? {} : { requestPolicy: modelPolicy }),
      },
    ],
    requestPolicy,
  });
  scratch.later(() => running.gateway.close());
  scratch.later(() => running.close());
  await running.gateway.ready();
  const openai = (key: string) => new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 });
  const client = async (name: string) => {
    const { key, stored } = await running.gateway.keys!.create({ name });
    return { openai: openai(key), key, publicId: stored.publicId };
  };
  return { client, openai };
}

describe('request policy layers: built-in ← gateway ← model ← key', () => {
  it('should merge field by field, the most specific layer winning each field', async () => {
    const { client } = await serve(
      scratch.file('policy'),
      {
        fields: { service_tier: 'refuse', store: 'allow' },
        maxOutputTokens: 500,
        keys: { 'ci-bot': { fields: { service_tier: 'allow' }, maxChoices: 3 } },
      },
      { fields: { service_tier: 'strip' }, maxOutputTokens: 300 },
    );
    const ci = await client('ci-bot');
    const other = await client('someone-else');

    // ci-bot on gpt-model: its own service_tier and maxChoices; the model's cap; the gateway's store.
    await ci.openai.chat.completions.create({
      model: 'gpt-model',
      messages: hello,
      n: 3,
      service_tier: 'priority',
      store: true,
      max_completion_tokens: 4000,
    });
    expect(sent()).toMatchObject({ n: 3, service_tier: 'priority', store: true, max_completion_tokens: 300 });

    // Another key on gpt-model: the model strips service_tier; n is the built-in cap of 1.
    await other.openai.chat.completions.create({ model: 'gpt-model', messages: hello, service_tier: 'priority', store: true });
    expect(sent()).not.toHaveProperty('service_tier');
    expect(sent()).toMatchObject({ store: true, max_completion_tokens: 300 });
    expect((await failureOf(other.openai.chat.completions.create({ model: 'gpt-model', messages: hello, n: 2 })))?.code).toBe(
      'request_policy_over_cap',
    );

    // Another key on gpt: the gateway refuses service_tier and caps output at 500.
    const refused = await failureOf(other.openai.chat.completions.create({ model: 'gpt', messages: hello, service_tier: 'priority' }));
    expect(refused?.param).toBe('service_tier');
    await other.openai.chat.completions.create({ model: 'gpt', messages: hello });
    expect(sent().max_completion_tokens).toBe(500);
  });

  it("should find a key's override by its public id before its name", async () => {
    const database = scratch.file('policy-keys');
    const { client } = await serve(database, undefined);
    const batch = await client('batch');
    // Configured once the key exists: by its public id (store) and by its name (service_tier).
    const { openai } = await serve(database, {
      keys: { batch: { fields: { service_tier: 'allow' } }, [batch.publicId]: { fields: { store: 'allow' } } },
    });
    await openai(batch.key).chat.completions.create({ model: 'gpt', messages: hello, service_tier: 'flex', store: true });
    expect(sent().store).toBe(true);
    expect(sent()).not.toHaveProperty('service_tier');
  });
});
