import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/storage/open-database.js';
import { useScratch } from '../helpers/scratch.js';
import { startGateway, type RunningGateway } from '../helpers/start-gateway.js';

const scratch = useScratch();

/**
 * A gateway on a SQLite ledger, and a second connection to read it, both closed after the test
 * and before the scratch files go (the files are the test's own, removed after each test).
 */
async function gatewayWithLedger(): Promise<{ running: RunningGateway; database: Database }> {
  const file = scratch.file('ledger.db');
  const running = await startGateway({ database: file, ledger: { intervalMs: 5 }, limits: { perKey: { requestsPerMinute: 1 } } });
  scratch.later(async () => {
    await running.close();
    await running.gateway.close();
  });
  await running.gateway.ready();
  const database = await openDatabase({ url: file });
  scratch.later(() => database.close());
  return { running, database };
}

describe('requests refused before any provider call', () => {
  it('leave a 429 row (attempt 0, nothing billed) for a limit, and no row for a bad request', async () => {
    const { running, database } = await gatewayWithLedger();
    const { key } = await running.gateway.keys!.create({ name: 'limited' });
    const openai = new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const ask = () => openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] });
    await ask();
    const refused = await ask().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    await openai.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'Hi' }] }).catch(() => undefined);
    await running.gateway.close();
    const { db } = database;
    const rows = await db
      .selectFrom('usage_ledger')
      .select(['attempt', 'status', 'error_code', 'billing', 'cost_nano_usd', 'input_tokens', 'model'])
      .orderBy('at')
      .orderBy('attempt')
      .execute();
    expect(rows).toEqual([
      expect.objectContaining({ attempt: 1, status: 200, billing: 'complete', model: 'mock' }),
      { attempt: 0, status: 429, error_code: 'RATE_LIMITED', billing: 'failed', cost_nano_usd: null, input_tokens: null, model: 'mock' },
    ]);
  });
});
