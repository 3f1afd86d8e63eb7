// Every upstream attempt of a request is a row of its own in the usage ledger, under the same
// request id: the failed ones with their deployment, status and error and no usage (unknown, never
// 0), the one that answered with its usage — on SQLite and PostgreSQL.
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/open-database.js';
import { startFaultUpstream, type FaultUpstream } from '../helpers/fault-upstream.js';
import { useScratch } from '../helpers/scratch.js';
import { startGateway, TEST_KEY } from '../helpers/start-gateway.js';

const scratch = useScratch();

async function ledgerRows(database: { url: string; schema?: string }) {
  const direct = await openDatabase({ ...database, migrate: false });
  try {
    return await direct.db.selectFrom('usage_ledger').selectAll().orderBy('request_id').orderBy('attempt').execute();
  } finally {
    await direct.close();
  }
}

async function upstreams(): Promise<[FaultUpstream, FaultUpstream]> {
  const started = await Promise.all([startFaultUpstream(), startFaultUpstream()]);
  for (const upstream of started) scratch.later(() => upstream.close());
  return started;
}

describe.each(['sqlite', 'postgres'] as const)('the ledger of a retried request on %s', (engine) => {
  it('should write a row per attempt with the same request id, the failed ones unbilled and with their deployment', async () => {
    const [east, west] = await upstreams();
    const database = scratch.database(engine);
    const running = await startGateway({
      database,
      apiKeys: [TEST_KEY],
      providers: {
        east: { type: 'openai', apiKey: 'sk-east', baseURL: `${east.url}/v1` },
        west: { type: 'openai', apiKey: 'sk-west', baseURL: `${west.url}/v1` },
      },
      retries: { attempts: 1, baseDelayMs: 5, maxDelayMs: 10 },
      models: [
        { id: 'primary', provider: 'east', upstreamModel: 'gpt-east', fallbacks: ['backup'], price: { input: 1, output: 2 } },
        {
          id: 'backup',
          deployments: [{ provider: 'west', name: 'west-backup' }],
          upstreamModel: 'gpt-west',
          price: { input: 10, output: 20 },
        },
      ],
      ledger: { outbox: scratch.file('outbox'), intervalMs: 5 },
    });
    scratch.later(() => running.gateway.close());
    scratch.later(() => running.close());
    await running.gateway.ready();
    east.script({ kind: 'status', status: 503 }, { kind: 'status', status: 502 });

    const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const completion = await openai.chat.completions.create({ model: 'primary', messages: [{ role: 'user', content: 'Hi' }] });
    expect(completion.choices[0]?.message.content).toBe('Hello from the upstream');
    const single = await openai.chat.completions.create({ model: 'backup', messages: [{ role: 'user', content: 'Hi' }] });

    await running.gateway.close();
    const rows = await ledgerRows(database);
    const retried = rows.filter((row) => row.request_id === completion._request_id);
    expect(
      retried.map((row) => [
        row.attempt,
        row.model,
        row.deployment,
        row.provider,
        row.upstream_model,
        row.status,
        row.error_code,
        row.billing,
      ]),
    ).toEqual([
      [1, 'primary', 'east/gpt-east', 'east', 'gpt-east', 503, 'UPSTREAM_ERROR', 'failed'],
      [2, 'primary', 'east/gpt-east', 'east', 'gpt-east', 502, 'UPSTREAM_ERROR', 'failed'],
      [3, 'backup', 'west-backup', 'west', 'gpt-west', 200, null, 'complete'],
    ]);
    // Failed attempts: no counts (unknown, not 0), no cost, no usage source.
    for (const row of retried.slice(0, 2)) {
      expect([row.input_tokens, row.output_tokens, row.cost_nano_usd, row.usage_source]).toEqual([null, null, null, null]);
    }
    // The answer is billed at the price of the model that gave it: 11 input and 3 output tokens at 10 and 20 USD per million.
    const served = retried[2]!;
    expect([served.input_tokens, served.output_tokens, served.usage_source]).toEqual([11, 3, 'reported']);
    expect(Number(served.cost_nano_usd)).toBe(11 * 10_000 + 3 * 20_000);
    const plain = rows.filter((row) => row.request_id === single._request_id);
    expect(plain.map((row) => [row.attempt, row.deployment, row.status])).toEqual([[1, 'west-backup', 200]]);
  });
});

describe('a fallback the key may not call', () => {
  it('should be skipped: the key gets the error of the model it may call, and the fallback is never called', async () => {
    const [east, west] = await upstreams();
    const database = scratch.database('sqlite');
    const running = await startGateway({
      database,
      providers: {
        east: { type: 'openai', apiKey: 'sk-east', baseURL: `${east.url}/v1` },
        west: { type: 'openai', apiKey: 'sk-west', baseURL: `${west.url}/v1` },
      },
      retries: { attempts: 0 },
      models: [
        { id: 'primary', provider: 'east', fallbacks: ['backup'] },
        { id: 'backup', provider: 'west' },
      ],
      ledger: { outbox: scratch.file('outbox'), intervalMs: 5 },
    });
    scratch.later(() => running.gateway.close());
    scratch.later(() => running.close());
    await running.gateway.ready();
    east.script({ kind: 'status', status: 503 });
    const { key: limited } = await running.gateway.keys!.create({ name: 'primary-only', models: ['primary'] });
    const { key: open } = await running.gateway.keys!.create({ name: 'any-model' });

    const refused = await new OpenAI({ apiKey: limited, baseURL: running.openAIBaseURL, maxRetries: 0 }).chat.completions
      .create({ model: 'primary', messages: [{ role: 'user', content: 'Hi' }] })
      .then(
        () => expect.unreachable('the request should fail'),
        (error: unknown) => error as { status?: number },
      );
    expect(refused.status).toBe(503);
    expect(west.calls).toHaveLength(0);

    const served = await new OpenAI({ apiKey: open, baseURL: running.openAIBaseURL, maxRetries: 0 }).chat.completions.create({
      model: 'primary',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(served.choices[0]?.message.content).toBe('Hello from the upstream');
    expect(west.calls).toHaveLength(1);
  });
});
