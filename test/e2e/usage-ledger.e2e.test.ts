import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createMockProvider } from '../../src/providers/mock/index.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { queryUsage } from '../../src/usage/usage-queries.js';
import { startGateway, type RunningGateway } from '../helpers/start-gateway.js';
import { useScratch } from '../helpers/scratch.js';

const scratch = useScratch();

/** A gateway over the mock model (and a slow one, for clients that leave), keeping its ledger in `database`. */
async function serve(
  database: { url: string; schema?: string },
  interruptedStreams?: 'estimate' | 'reported-only',
): Promise<RunningGateway> {
  const running = await startGateway({
    database,
    providers: { slow: createMockProvider({ chunkDelayMs: 30 }) },
    models: [
      { id: 'mock', provider: 'mock' },
      { id: 'slow', provider: 'slow' },
    ],
    ledger: { outbox: scratch.file('outbox'), intervalMs: 5, ...(interruptedStreams ? { interruptedStreams } : {}) },
  });
  scratch.later(() => running.gateway.close());
  scratch.later(() => running.close());
  await running.gateway.ready();
  return running;
}

async function ledgerRows(database: { url: string; schema?: string }) {
  const direct = await openDatabase({ ...database, migrate: false });
  try {
    return await direct.db.selectFrom('usage_ledger').selectAll().orderBy('at').orderBy('request_id').execute();
  } finally {
    await direct.close();
  }
}

describe.each(['sqlite', 'postgres'] as const)('the usage ledger on %s', (engine) => {
  it('should write one row per request with the usage the client was told, by key', async () => {
    const database = scratch.database(engine);
    const running = await serve(database);
    const { key, stored } = await running.gateway.keys!.create({ name: 'ledger' });
    const openai = new OpenAI({
      apiKey: key,
      baseURL: running.openAIBaseURL,
      maxRetries: 0,
      defaultHeaders: { 'user-agent': 'ledger-test/1' },
    });
    const anthropic = new Anthropic({ apiKey: key, baseURL: running.root, maxRetries: 0 });

    const chat = await openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Count me' }] });
    const chatStream = await openai.chat.completions.create({
      model: 'mock',
      messages: [{ role: 'user', content: 'Stream me' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let streamedUsage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of chatStream) streamedUsage = chunk.usage ?? streamedUsage;
    const message = await anthropic.messages.create({ model: 'mock', max_tokens: 100, messages: [{ role: 'user', content: 'And me' }] });
    const refused = await openai.chat.completions
      .create({ model: 'nope', messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.NotFoundError);

    await running.gateway.close();
    const rows = await ledgerRows(database);
    // The unknown model never reached a provider: no attempt, no row.
    expect(rows).toHaveLength(3);
    expect(rows.map((row) => [row.protocol, row.stream, row.billing, row.status, row.key_public_id])).toEqual([
      ['chat', 0, 'complete', 200, stored.publicId],
      ['chat', 1, 'complete', 200, stored.publicId],
      ['messages', 0, 'complete', 200, stored.publicId],
    ]);
    expect(rows.map((row) => [row.input_tokens, row.output_tokens])).toEqual([
      [chat.usage?.prompt_tokens, chat.usage?.completion_tokens],
      [streamedUsage?.prompt_tokens, streamedUsage?.completion_tokens],
      [message.usage.input_tokens, message.usage.output_tokens],
    ]);
    expect(rows[0]?.request_id).toBe(chat._request_id);
    expect(rows[0]?.user_agent).toBe('ledger-test/1');
    expect(rows.every((row) => row.attempt === 1 && row.usage_source === 'reported' && row.model === 'mock')).toBe(true);
    expect(rows[1]?.first_token_ms).not.toBeNull();
    // No price is known for the mock model: unpriced, never 0.
    expect(rows.every((row) => row.cost_nano_usd === null)).toBe(true);

    const direct = await openDatabase({ ...database, migrate: false });
    const totals = await queryUsage(direct.db, { groupBy: 'key' });
    await direct.close();
    expect(totals).toEqual([
      expect.objectContaining({
        group: stored.publicId,
        requests: 3,
        errors: 0,
        outputTokens: rows.reduce((sum, row) => sum + Number(row.output_tokens), 0),
        costNanoUsd: 0,
        unpriced: 3,
      }),
    ]);
  });

  it('should bill a stream the client left as partial: input plus an estimate of what was sent', async () => {
    const database = scratch.database(engine);
    const running = await serve(database);
    const { key } = await running.gateway.keys!.create({ name: 'leaver' });
    const anthropic = new Anthropic({ apiKey: key, baseURL: running.root, maxRetries: 0 });
    const stream = anthropic.messages.stream({
      model: 'slow',
      max_tokens: 500,
      messages: [{ role: 'user', content: 'Tell me a long story about a lighthouse keeper and the sea' }],
    });
    let deltas = 0;
    for await (const event of stream) {
      if (event.type === 'content_block_delta') deltas += 1;
      if (deltas === 2) break;
    }
    // The client is gone; closing waits for its request to end and be recorded.
    await running.gateway.close();
    const rows = await ledgerRows(database);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({ billing: 'partial', usage_source: 'estimated', status: 200, stream: 1 });
    expect(Number(row?.input_tokens)).toBeGreaterThan(0);
    expect(Number(row?.output_tokens)).toBeGreaterThan(0);
  });
});
