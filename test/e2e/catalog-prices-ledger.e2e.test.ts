import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENAI_PRICES } from '../../src/catalog/index.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { sseText, startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { useScratch } from '../helpers/scratch.js';
import { startGateway, type RunningGateway } from '../helpers/start-gateway.js';

const scratch = useScratch();
let upstream: MockUpstream;
beforeAll(async () => {
  upstream = await startMockUpstream();
});
afterAll(() => upstream.close());

const claudeAnswer = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5-20250929',
  content: [{ type: 'text', text: 'Hello.' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: {
    input_tokens: 1_000,
    output_tokens: 200,
    cache_read_input_tokens: 4_000,
    cache_creation_input_tokens: 3_000,
    cache_creation: { ephemeral_5m_input_tokens: 2_000, ephemeral_1h_input_tokens: 1_000 },
  },
};

const chatAnswer = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4.1-mini-2025-04-14',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10_000, completion_tokens: 500, total_tokens: 10_500, prompt_tokens_details: { cached_tokens: 6_000 } },
};

async function serve(database: { url: string; schema?: string }): Promise<RunningGateway> {
  const running = await startGateway({
    database,
    providers: {
      anthropic: { apiKey: 'sk-ant-up', baseURL: upstream.url },
      openai: { apiKey: 'sk-up', baseURL: `${upstream.url}/v1` },
    },
    models: [
      { id: 'via-anthropic', provider: 'anthropic', upstreamModel: 'claude-sonnet-4-5' },
      { id: 'via-chat', provider: 'openai', upstreamModel: 'gpt-4.1-mini' },
      { id: 'priced', provider: 'openai', upstreamModel: 'gpt-4.1-mini', price: { input: 1, output: 2 } },
    ],
    ledger: { outbox: scratch.file('outbox'), intervalMs: 5 },
  });
  scratch.later(() => running.gateway.close());
  scratch.later(() => running.close());
  await running.gateway.ready();
  return running;
}

describe('the ledger priced from the catalog', () => {
  it('should price a model the config does not price at the catalog price, and the config price where it has one', async () => {
    const database = scratch.database('sqlite');
    const running = await serve(database);
    const { key } = await running.gateway.keys!.create({ name: 'catalog' });
    const anthropic = new Anthropic({ apiKey: key, baseURL: running.root, maxRetries: 0 });
    const openai = new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 });

    upstream.reply({ json: claudeAnswer });
    await anthropic.messages.create({ model: 'via-anthropic', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] });
    // Streamed: the cache split comes in message_start, the output count in message_delta.
    const { usage, content: _content, ...message } = claudeAnswer;
    upstream.reply({
      sse: sseText([
        {
          event: 'message_start',
          data: { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } },
        },
        { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
        { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello.' } } },
        { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
        {
          event: 'message_delta',
          data: { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 200 } },
        },
        { event: 'message_stop', data: { type: 'message_stop' } },
      ]),
      headers: { 'content-type': 'text/event-stream' },
    });
    // Through the OpenAI SDK, so the stream is decoded (not relayed as it came).
    const streamed = await openai.chat.completions.create({
      model: 'via-anthropic',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    for await (const _chunk of streamed) void _chunk;
    upstream.reply({ json: chatAnswer });
    await openai.chat.completions.create({ model: 'via-chat', messages: [{ role: 'user', content: 'Hi' }] });
    await openai.chat.completions.create({ model: 'priced', messages: [{ role: 'user', content: 'Hi' }] });
    await running.gateway.close();

    const direct = await openDatabase({ ...database, migrate: false });
    const rows = await direct.db.selectFrom('usage_ledger').selectAll().orderBy('at').execute();
    await direct.close();
    const catalogVersion = `catalog:genai-prices@${GENAI_PRICES.version}:${GENAI_PRICES.publishedOn}`;
    expect(rows.map((row) => [row.model, Number(row.cost_nano_usd), row.price_version])).toEqual([
      // Claude Sonnet 4.5: 1,000 × 3,000 + 4,000 read × 300 + 2,000 5-minute writes × 3,750 + 1,000 1-hour writes × 6,000 + 200 × 15,000
      ['via-anthropic', 3_000_000 + 1_200_000 + 7_500_000 + 6_000_000 + 3_000_000, catalogVersion],
      ['via-anthropic', 20_700_000, catalogVersion],
      // GPT-4.1 mini: 4,000 × 400 + 6,000 cached × 100 + 500 × 1,600
      ['via-chat', 1_600_000 + 600_000 + 800_000, catalogVersion],
      // The config's $1 / $2 per million: 10,000 × 1,000 + 500 × 2,000
      ['priced', 11_000_000, expect.stringMatching(/^config:[0-9a-f]{12}$/)],
    ]);
  });
});
