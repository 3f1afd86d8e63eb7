import Anthropic from '@anthropic-ai/sdk';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxCostOf } from '../../src/catalog/cost.js';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { spentSince } from '../../src/usage/usage-queries.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { useScratch } from '../helpers/scratch.js';
import { startGateway, type RunningGateway } from '../helpers/start-gateway.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** $1 per million tokens either way: 1,000 nano-USD per token. */
const price = { input: 1, output: 1 };
const WINDOW = 200_000;
const MAX_TOKENS = 100;
/** What the provider bills for the PDF: far more than any allowance for a document of unknown size. */
const BILLED_INPUT = 150_000;
const BILLED_OUTPUT = 10;
/** $0.01. */
const BUDGET = 10_000_000;
const CONCURRENT = 200;

const scratch = useScratch();
let upstream: MockUpstream;
beforeAll(async () => {
  upstream = await startMockUpstream();
  upstream.reply({
    json: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'text', text: 'A summary.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: BILLED_INPUT, output_tokens: BILLED_OUTPUT },
    },
  });
});
afterAll(() => upstream.close());

async function serve(options: GatewayOptions): Promise<RunningGateway> {
  const running = await startGateway({
    providers: { anthropic: { apiKey: 'sk-ant-up', baseURL: upstream.url } },
    models: [
      { id: 'windowed', provider: 'anthropic', upstreamModel: 'claude-x', price, contextWindow: WINDOW },
      { id: 'unwindowed', provider: 'anthropic', upstreamModel: 'claude-x', price },
    ],
    ledger: { outbox: scratch.file('outbox'), intervalMs: 5 },
    ...options,
  });
  scratch.later(() => running.gateway.close());
  scratch.later(() => running.close());
  await running.gateway.ready();
  return running;
}

/** One Messages request with a PDF by URL: 'ok', or the status and error type. */
async function askAboutPdf(client: Anthropic, model: string): Promise<string> {
  try {
    await client.messages.create({
      model,
      max_tokens: MAX_TOKENS,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'url', url: 'https://example.com/annual-report.pdf' } },
            { type: 'text', text: 'Summarize this.' },
          ],
        },
      ],
    });
    return 'ok';
  } catch (error) {
    if (error instanceof Anthropic.APIError)
      return `${error.status} ${String((error.error as { error?: { type?: string } } | undefined)?.error?.type)}`;
    throw error;
  }
}

async function spentOf(database: { url: string; schema?: string }, keyId: string): Promise<number> {
  const direct = await openDatabase({ ...database, migrate: false });
  try {
    return await spentSince(direct.db, keyId, 0);
  } finally {
    await direct.close();
  }
}

/** 200 PDF requests at once on a $0.01 key; what the ledger says the key spent, and how many got through. */
async function spendOnPdfs(
  options: GatewayOptions,
  database: { url: string; schema?: string },
  model: string,
): Promise<{ spent: number; succeeded: number }> {
  const running = await serve({ database, ...options });
  const { key, stored } = await running.gateway.keys!.create({ name: 'small budget', budget: { nanoUsd: BUDGET, period: 'day' } });
  const client = new Anthropic({ apiKey: key, baseURL: running.root, maxRetries: 0 });
  const outcomes = await Promise.all(Array.from({ length: CONCURRENT }, () => askAboutPdf(client, model)));
  // Refused while the one request runs (its reservation holds the rest: retry), then for good once it is spent.
  expect(outcomes.every((outcome) => ['ok', '429 rate_limit_error', '402 billing_error'].includes(outcome))).toBe(true);
  await running.gateway.close();
  return { spent: await spentOf(database, stored.publicId), succeeded: outcomes.filter((outcome) => outcome === 'ok').length };
}

/** One request's cost as billed. */
const BILLED = BILLED_INPUT * 1_000 + BILLED_OUTPUT * 1_000;
/** docs/keys-usage-budgets.md: over the budget by at most one request's largest cost, the window's worth of input plus its output allowance. */
const WINDOW_BOUND = BUDGET + maxCostOf(WINDOW, MAX_TOKENS, price);

describe('budgets with input the body does not measure (a PDF by URL, billed far past any allowance)', () => {
  it('should overshoot by at most one request on a model with a context window (memory counters)', async () => {
    const { spent, succeeded } = await spendOnPdfs({}, { url: scratch.file('budget') }, 'windowed');
    expect(spent).toBeLessThanOrEqual(WINDOW_BOUND);
    expect(succeeded).toBe(1);
    expect(spent).toBe(BILLED);
  });

  it('should overshoot by at most one request on a model with a context window (Redis counters, PostgreSQL)', async () => {
    const { spent, succeeded } = await spendOnPdfs(
      { redis: REDIS_URL, redisPrefix: `test:${randomBytes(6).toString('hex')}:` },
      scratch.postgres(),
      'windowed',
    );
    expect(spent).toBeLessThanOrEqual(WINDOW_BOUND);
    expect(succeeded).toBe(1);
  });

  it('should let such requests run one at a time on a model without a known window, so that one request at most overshoots', async () => {
    const { spent, succeeded } = await spendOnPdfs({}, { url: scratch.file('budget') }, 'unwindowed');
    expect(spent).toBeLessThanOrEqual(BUDGET + BILLED);
    expect(succeeded).toBe(1);
  });
});
