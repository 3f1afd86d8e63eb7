import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../examples/guardrail/app.js';
import { cardNumberGuardrail, REDACTED } from '../../examples/guardrail/card-number-guardrail.js';
import { createOpenAIProvider } from '../../src/providers/openai/index.js';
import { silentLogger } from '../../src/logger.js';
import type { MockUpstream } from '../helpers/mock-upstream.js';
import { startProtocolUpstream } from '../helpers/protocol-upstream.js';
import { useScratch } from '../helpers/scratch.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

/** A Visa test number (passes Luhn) and a 16-digit run that does not. */
const CARD = '4111 1111 1111 1111';
const NOT_A_CARD = '1234 5678 9012 3456';

const scratch = useScratch();
let upstream: MockUpstream;
beforeAll(async () => {
  upstream = await startProtocolUpstream();
});
afterAll(() => upstream.close());

async function serve(mode: 'refuse' | 'redact'): Promise<RunningGateway> {
  const running = await startGateway({
    providers: { openai: createOpenAIProvider({ apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1` }) },
    models: [{ id: 'gpt', provider: 'openai', upstreamModel: 'up' }],
    limits: { keys: { options: { requestsPerMinute: 2 } } },
    stages: [cardNumberGuardrail({ mode })],
  });
  scratch.later(() => running.gateway.close());
  scratch.later(() => running.close());
  return running;
}

/** The text the upstream was last sent, all of it. */
const lastSent = () => JSON.stringify(upstream.requests.at(-1)?.body);

describe('examples/guardrail', () => {
  it('should refuse a card number with a 400 in each protocol, before the provider or any limit', async () => {
    const running = await serve('refuse');
    const before = upstream.requests.length;
    const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
    const content = `My card is ${CARD}, charge it.`;
    // Three refusals against a limit of two requests a minute: a refusal spends none of it.
    for (const ask of [
      () => openai.chat.completions.create({ model: 'gpt', messages: [{ role: 'user', content }] }),
      () => openai.responses.create({ model: 'gpt', stream: true, input: content }),
      () => anthropic.messages.create({ model: 'gpt', max_tokens: 64, messages: [{ role: 'user', content }] }),
    ]) {
      const error = await ask().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({ status: 400 });
      expect(String((error as Error).message)).toContain('payment card number');
    }
    expect(upstream.requests.length).toBe(before);
    const answer = await openai.chat.completions.create({ model: 'gpt', messages: [{ role: 'user', content: `Order ${NOT_A_CARD}` }] });
    expect(answer.choices[0]?.message.content).toBe('ok');
  });

  it("should say which error in the caller's protocol: OpenAI code, Anthropic error type", async () => {
    const running = await serve('refuse');
    const chat = await request(running.root)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${TEST_KEY}`)
      .send({ model: 'gpt', messages: [{ role: 'user', content: CARD }] });
    expect(chat.status).toBe(400);
    expect(chat.body.error).toMatchObject({ code: 'card_number_in_input', type: 'invalid_request_error' });
    const messages = await request(running.root)
      .post('/v1/messages')
      .set('x-api-key', TEST_KEY)
      .set('anthropic-version', '2023-06-01')
      .send({ model: 'gpt', max_tokens: 10, messages: [{ role: 'user', content: CARD }] });
    expect(messages.status).toBe(400);
    expect(messages.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    // count_tokens runs the same stages: the number is not counted upstream either.
    const counted = await request(running.root)
      .post('/v1/messages/count_tokens')
      .set('x-api-key', TEST_KEY)
      .set('anthropic-version', '2023-06-01')
      .send({ model: 'gpt', messages: [{ role: 'user', content: CARD }] });
    expect(counted.status).toBe(400);
    const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const countedOnResponses = await openai.responses.inputTokens.count({ model: 'gpt', input: CARD }).catch((caught: unknown) => caught);
    expect(countedOnResponses).toBeInstanceOf(OpenAI.BadRequestError);
    expect(countedOnResponses).toMatchObject({ code: 'card_number_in_input' });
  });

  it('should redact the number before the provider sees it, and say so', async () => {
    const running = await serve('redact');
    const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const answer = await openai.chat.completions
      .create({
        model: 'gpt',
        messages: [
          { role: 'system', content: `Card on file: ${CARD}` },
          { role: 'user', content: `Use ${CARD.replaceAll(' ', '-')}` },
        ],
      })
      .withResponse();
    expect(answer.data.choices[0]?.message.content).toBe('ok');
    expect(answer.response.headers.get('x-guardrail-redacted')).toBe('2');
    expect(lastSent()).not.toContain('4111');
    expect(lastSent()).toContain(REDACTED);
    const anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
    const streamed = anthropic.messages.stream({ model: 'gpt', max_tokens: 64, messages: [{ role: 'user', content: `Card ${CARD}` }] });
    expect((await streamed.finalMessage()).content).toEqual([expect.objectContaining({ type: 'text', text: 'ok' })]);
    expect(lastSent()).not.toContain('4111');
  });

  it('should run as the example app', async () => {
    const app = createApp({ apiKeys: ['sk-guard-example'], logger: silentLogger });
    const response = await request(app)
      .post('/v1/chat/completions')
      .set('authorization', 'Bearer sk-guard-example')
      .send({ model: 'mock', messages: [{ role: 'user', content: CARD }] });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('card_number_in_input');
  });
});
