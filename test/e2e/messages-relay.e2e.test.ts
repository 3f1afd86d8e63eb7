// An Anthropic Messages client served by an Anthropic upstream gets the upstream's stream passed
// through (DESIGN's same-protocol fast path), with every guarantee of the translated path.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { anthropicRules } from '../../src/endpoints/endpoint-rules.js';
import { createAnthropicProvider } from '../../src/providers/anthropic/index.js';
import { messagesCodec } from '../../src/protocols/messages/index.js';
import type { RequestRecord } from '../../src/usage/record-stage.js';
import { chunkLinesFixture, jsonFixture, sseFixture } from '../helpers/fixtures.js';
import { startMockUpstream, sseText, type MockUpstream } from '../helpers/mock-upstream.js';
import { ENDPOINT_KEY, serveEndpoint, type ServedEndpoint } from '../helpers/serve-endpoint.js';

let upstream: MockUpstream;
let served: ServedEndpoint;
let client: Anthropic;
const records: RequestRecord[] = [];

beforeAll(async () => {
  upstream = await startMockUpstream();
  served = await serveEndpoint(
    messagesCodec,
    () => ({ record: { record: (entry) => void records.push(entry) } }),
    {
      providers: { anthropic: createAnthropicProvider({ apiKey: 'sk-ant-upstream', baseURL: upstream.url }) },
      models: [{ id: 'claude', provider: 'anthropic', upstreamModel: 'claude-x' }],
    },
    anthropicRules,
  );
  client = new Anthropic({ apiKey: ENDPOINT_KEY, baseURL: served.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
});
afterAll(async () => {
  served.close();
  await upstream.close();
});
afterEach(() => {
  records.length = 0;
});

const hello = { model: 'claude', max_tokens: 100, messages: [{ role: 'user' as const, content: 'Hi' }] };

describe('a Messages stream passed through from an Anthropic upstream', () => {
  it("should give the client's stream helper the whole message, naming the model the client asked for", async () => {
    upstream.reply({ sse: sseFixture('messages', 'upstream-text'), chunkBytes: 4 });
    const message = await client.messages.stream(hello).finalMessage();
    expect(message.model).toBe('claude');
    expect(message.content).toEqual([expect.objectContaining({ type: 'text' })]);
    expect(message.stop_reason).toBe('end_turn');
    expect(records[0]).toMatchObject({ protocol: 'messages', status: 200, errorCode: undefined });
    expect(records[0]?.usage?.outputTokens).toBeGreaterThan(0);
  });

  it('should end a stream the upstream cut short with an error the client raises', async () => {
    const lines = chunkLinesFixture('messages', 'upstream-text');
    const cut = lines
      .slice(0, 4)
      .map((line) => ({ event: (JSON.parse(line) as { type: string }).type, data: JSON.parse(line) as unknown }));
    upstream.reply({ sse: sseText(cut) });
    const failure = await client.messages
      .stream(hello)
      .finalMessage()
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toContain('ended before');
    expect(records[0]).toMatchObject({ status: 200, errorCode: 'STREAM_ENDED_EARLY', usage: undefined });
  });

  it.each([
    ['cut off', '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"lo'],
    ['not JSON', 'garbage'],
  ])('should end a stream whose upstream sent a delta that is %s with the in-band error the client raises', async (_, broken) => {
    const lines = chunkLinesFixture('messages', 'upstream-text');
    const frames = lines.map((line) => ({ event: (JSON.parse(line) as { type: string }).type, data: JSON.parse(line) as unknown }));
    // The first delta as the upstream wrote it, then one that no client can parse, then the rest.
    const sse = sseText(frames.slice(0, 4)) + sseText([{ event: 'content_block_delta', data: broken }]) + sseText(frames.slice(4));
    upstream.reply({ sse });
    const failure = await client.messages
      .stream(hello)
      .finalMessage()
      .catch((error: unknown) => error);
    // The SDK's own error for an in-band error event (not a SyntaxError from parsing the broken delta).
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect(String((failure as Error).message)).toContain('not JSON');
    // In-band (200) or, when the broken delta came in the same read as the first output, an HTTP 502.
    expect(records[0]).toMatchObject({ errorCode: 'UPSTREAM_INVALID_STREAM', usage: undefined });
  });

  it('should answer an error before any output with an HTTP error in the Anthropic shape', async () => {
    upstream.reply({
      sse: sseText([{ event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }]),
    });
    const failure = (await client.messages.create({ ...hello, stream: true }).catch((error: unknown) => error)) as InstanceType<
      typeof Anthropic.APIError
    >;
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect(failure.status).toBe(529);
    expect(failure.headers?.get('request-id')).toMatch(/^req_/);
  });
});

describe('a Messages answer passed through from an Anthropic upstream', () => {
  it('should reach the client as the upstream wrote it, naming the model the client asked for, with its usage recorded', async () => {
    const body = jsonFixture('messages', 'upstream-response');
    upstream.reply({ json: body });
    const message = await client.messages.create(hello);
    expect(message).toEqual({ ...body, model: 'claude' });
    expect(records[0]?.usage?.outputTokens).toBe((body.usage as { output_tokens: number }).output_tokens);
  });
});
