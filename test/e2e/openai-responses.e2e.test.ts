import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIResponsesProvider } from '../../src/providers/openai-responses/index.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';
import { jsonFixture, sseFixture } from '../helpers/fixtures.js';

let upstream: MockUpstream;
let gateway: RunningGateway;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  upstream = await startMockUpstream();
  gateway = await startGateway({
    providers: { openai: createOpenAIResponsesProvider({ apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1` }) },
    models: [{ id: 'smart', provider: 'openai', upstreamModel: 'gpt-5' }],
    // The operator lets callers keep responses at OpenAI (the request policy strips `store` by default).
    requestPolicy: { fields: { store: 'allow' } },
  });
  openai = new OpenAI({ apiKey: TEST_KEY, baseURL: gateway.openAIBaseURL, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: gateway.root, maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

const sent = (index: number) => upstream.requests[index]?.body as Record<string, unknown>;

describe('openai-responses provider behind the gateway', () => {
  it('should let a Responses client replay OpenAI reasoning and item ids on its next turn', async () => {
    upstream.reply({ json: jsonFixture('responses', 'upstream-response') }, { json: jsonFixture('responses', 'upstream-incomplete') });
    const first = await openai.responses.create({
      model: 'smart',
      input: 'Weather in Paris?',
      reasoning: { effort: 'medium' },
      store: false,
    });
    const reasoning = first.output.find((item) => item.type === 'reasoning');
    expect(reasoning).toMatchObject({ id: 'rs_67ccd2bf', encrypted_content: 'gAAAAABoA1encryptedReasoningBlob==' });

    await openai.responses.create({
      model: 'smart',
      store: false,
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { type: 'function_call_output', call_id: 'call_Ab12Cd34', output: 'sunny' },
      ],
    });
    const input = sent(1).input as Record<string, unknown>[];
    expect(input.slice(1)).toEqual([
      {
        type: 'reasoning',
        id: 'rs_67ccd2bf',
        summary: [{ type: 'summary_text', text: 'The user wants the weather; I should call the tool.' }],
        encrypted_content: 'gAAAAABoA1encryptedReasoningBlob==',
        status: 'completed',
      },
      expect.objectContaining({ type: 'message', id: 'msg_67ccd2c0', role: 'assistant' }),
      expect.objectContaining({ type: 'function_call', id: 'fc_67ccd2c1', call_id: 'call_Ab12Cd34' }),
      { type: 'function_call_output', call_id: 'call_Ab12Cd34', output: 'sunny' },
    ]);
    expect(sent(0)).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] });
  });

  it('should let a streaming Responses client (Codex) replay OpenAI encrypted reasoning on its next turn', async () => {
    upstream.reply(
      { sse: sseFixture('responses', 'upstream-reasoning'), chunkBytes: 7 },
      { json: jsonFixture('responses', 'upstream-incomplete') },
    );
    const first = await openai.responses
      .stream({ model: 'smart', input: 'Weather in Paris?', reasoning: { effort: 'high' }, store: false })
      .finalResponse();
    const reasoning = first.output.find((item) => item.type === 'reasoning');
    expect(reasoning).toMatchObject({ id: 'rs_1', encrypted_content: 'gAAAAABoStreamedBlob==' });

    await openai.responses.create({
      model: 'smart',
      store: false,
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { role: 'user', content: 'Thanks' },
      ],
    });
    const replayed = (sent(1).input as Record<string, unknown>[]).find((item) => item.type === 'reasoning');
    expect(replayed).toMatchObject({ type: 'reasoning', id: 'rs_1', encrypted_content: 'gAAAAABoStreamedBlob==' });
  });

  it('should pass Responses-only fields such as previous_response_id and store through', async () => {
    upstream.reply({ json: jsonFixture('responses', 'upstream-incomplete') });
    const answer = await openai.responses.create({ model: 'smart', input: 'Go on', previous_response_id: 'resp_prev1', store: true });
    expect(sent(0)).toMatchObject({ model: 'gpt-5', previous_response_id: 'resp_prev1', store: true });
    expect(answer.status).toBe('incomplete');
    expect(answer.incomplete_details?.reason).toBe('max_output_tokens');
  });

  it('should refuse an Anthropic request with stop sequences before calling OpenAI', async () => {
    const error = await anthropic.messages
      .create({ model: 'smart', max_tokens: 100, stop_sequences: ['END'], messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((error as Error).message)).toContain('stop');
    expect(upstream.requests).toHaveLength(0);
  });

  it('should answer a Chat stream whose upstream fails before any output with the real status', async () => {
    upstream.reply({ sse: sseFixture('responses', 'upstream-error-event') });
    const error = await openai.chat.completions
      .create({ model: 'smart', stream: true, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
  });

  it('should stream reasoning to an Anthropic client as thinking', async () => {
    upstream.reply({ sse: sseFixture('responses', 'upstream-reasoning'), chunkBytes: 3 });
    const message = await anthropic.messages
      .stream({
        model: 'smart',
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [{ role: 'user', content: 'Hi' }],
      })
      .finalMessage();
    expect(sent(0)).toMatchObject({ reasoning: { effort: 'low', summary: 'auto' }, include: ['reasoning.encrypted_content'] });
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(message.content[0]).toMatchObject({ thinking: 'Comparing options…\n\nParis is usually mild.' });
    expect(message.usage).toMatchObject({ cache_read_input_tokens: 100, output_tokens: 80 });
  });
});
