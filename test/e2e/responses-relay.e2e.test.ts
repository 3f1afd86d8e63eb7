// A Responses client served by an OpenAI Responses upstream gets the upstream's stream passed
// through (DESIGN's same-protocol fast path). These tests hold it to every guarantee of the
// translated path: usage recorded, errors in the caller's shape, in-band failures, the caller's model.
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIResponsesProvider } from '../../src/providers/openai-responses/index.js';
import { responsesCodec } from '../../src/protocols/responses/index.js';
import type { RequestRecord } from '../../src/usage/record-stage.js';
import { chunkLinesFixture, jsonFixture, sseFixture } from '../helpers/fixtures.js';
import { startMockUpstream, sseText, type MockUpstream } from '../helpers/mock-upstream.js';
import { ENDPOINT_KEY, serveEndpoint, type ServedEndpoint } from '../helpers/serve-endpoint.js';

let upstream: MockUpstream;
let served: ServedEndpoint;
let client: OpenAI;
const records: RequestRecord[] = [];

beforeAll(async () => {
  upstream = await startMockUpstream();
  served = await serveEndpoint(responsesCodec, () => ({ record: { record: (entry) => void records.push(entry) } }), {
    providers: { openai: createOpenAIResponsesProvider({ apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1` }) },
    models: [{ id: 'smart', provider: 'openai', upstreamModel: 'gpt-5', aliases: ['smart-latest'] }],
  });
  client = new OpenAI({ apiKey: ENDPOINT_KEY, baseURL: served.baseURL, maxRetries: 0 });
});
afterAll(async () => {
  served.close();
  await upstream.close();
});
afterEach(() => {
  records.length = 0;
});

/** Every event a streaming Responses call yields, through the official client. */
async function streamEvents(model = 'smart'): Promise<OpenAI.Responses.ResponseStreamEvent[]> {
  const events: OpenAI.Responses.ResponseStreamEvent[] = [];
  for await (const event of await client.responses.create({ model, input: 'Hi', stream: true })) events.push(event);
  return events;
}

/** The text stream fixture's events, cut before the text was done. */
function cutTextStream(): string {
  const lines = chunkLinesFixture('responses', 'upstream-text');
  const cut = lines.findIndex((line) => line.includes('"response.output_text.done"'));
  return sseText(
    lines.slice(0, cut).map((line) => ({ event: (JSON.parse(line) as { type: string }).type, data: JSON.parse(line) as unknown })),
  );
}

describe('a Responses stream passed through from an OpenAI Responses upstream', () => {
  it.each([
    [
      'cut off',
      '{"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"lo',
    ],
    ['not JSON', 'garbage'],
  ])('should end a stream whose upstream sent a delta that is %s with the in-band error the client raises', async (_, broken) => {
    const lines = chunkLinesFixture('responses', 'upstream-text');
    const frames = lines.map((line) => ({ event: (JSON.parse(line) as { type: string }).type, data: JSON.parse(line) as unknown }));
    const first = frames.findIndex((frame) => frame.event === 'response.output_text.delta');
    // The first delta as the upstream wrote it, then one that no client can parse, then the rest.
    upstream.reply({
      sse:
        sseText(frames.slice(0, first + 1)) +
        sseText([{ event: 'response.output_text.delta', data: broken }]) +
        sseText(frames.slice(first + 1)),
    });
    const failure = await streamEvents().catch((error: unknown) => error);
    // The SDK's own error for an in-band error event (not a SyntaxError from parsing the broken delta).
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    // In-band (200) or, when the broken delta came in the same read as the first output, an HTTP 502.
    expect(records[0]).toMatchObject({ errorCode: 'UPSTREAM_INVALID_STREAM', usage: undefined });
  });

  it('should reach the client event for event, naming the model the client asked for', async () => {
    upstream.reply({ sse: sseFixture('responses', 'upstream-text'), chunkBytes: 5 });
    const events = await streamEvents('smart-latest');
    const upstreamTypes = chunkLinesFixture('responses', 'upstream-text').map((line) => (JSON.parse(line) as { type: string }).type);
    expect(events.map((event) => event.type)).toEqual(upstreamTypes);
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(completed.response.model).toBe('smart-latest');
    expect(completed.response.output).toEqual([expect.objectContaining({ id: 'msg_1', type: 'message', status: 'completed' })]);
  });

  it("should give the client's stream helper its final response", async () => {
    upstream.reply({ sse: sseFixture('responses', 'upstream-text'), chunkBytes: 3 });
    const final = await client.responses.stream({ model: 'smart', input: 'Hi' }).finalResponse();
    expect(final).toMatchObject({ id: 'resp_1', model: 'smart', status: 'completed', output_text: 'Bonjour — café ☀️!' });
  });

  it('should record the usage the upstream reported', async () => {
    upstream.reply({ sse: sseFixture('responses', 'upstream-text') });
    await streamEvents();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ protocol: 'responses', model: 'smart', stream: true, status: 200, errorCode: undefined });
    expect(records[0]?.usage).toEqual({ inputTokens: 9, outputTokens: 3, cachedInputTokens: 0, reasoningTokens: 0, totalTokens: 12 });
  });

  it('should pass on events the gateway has no use for', async () => {
    const lines = chunkLinesFixture('responses', 'upstream-text').map(
      (line) => JSON.parse(line) as { type: string; sequence_number: number },
    );
    const at = lines.findIndex((line) => line.type === 'response.output_text.done');
    const annotation = {
      type: 'response.output_text.annotation.added',
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      annotation_index: 0,
      annotation: { type: 'url_citation', url: 'https://example.com', title: 'Example', start_index: 0, end_index: 3 },
    };
    const frames = [...lines.slice(0, at), annotation, ...lines.slice(at)].map((data, index) => ({
      event: data.type,
      data: { ...data, sequence_number: index },
    }));
    upstream.reply({ sse: sseText(frames) });
    const events = await streamEvents();
    expect(events.find((event) => event.type === 'response.output_text.annotation.added')).toMatchObject({
      annotation: { url: 'https://example.com' },
    });
  });

  it('should end a stream the upstream cut short with response.failed, continuing its numbering, and record the error', async () => {
    upstream.reply({ sse: cutTextStream() });
    const events = await streamEvents();
    const failed = events.at(-1) as OpenAI.Responses.ResponseFailedEvent;
    expect(failed.type).toBe('response.failed');
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    expect(failed.response).toMatchObject({ status: 'failed', model: 'smart', error: { code: 'server_error' } });
    expect(failed.response.output).toEqual([expect.objectContaining({ id: 'msg_1', status: 'incomplete' })]);
    expect(records[0]).toMatchObject({ status: 200, errorCode: 'STREAM_ENDED_EARLY', usage: undefined });
  });

  it('should bill a stream cut short by the text of the deltas it sent, not the frames around them', async () => {
    const lines = chunkLinesFixture('responses', 'upstream-text');
    const cut = lines.findIndex((line) => line.includes('"response.output_text.done"'));
    // Long instructions in every snapshot (Codex sends ~20,000 characters): none of them is output.
    const instructions = 'Follow the house rules. '.repeat(800);
    const frames = lines.slice(0, cut).map((line) => {
      const event = JSON.parse(line) as { type: string; response?: Record<string, unknown> };
      if (event.response !== undefined) event.response = { ...event.response, instructions };
      return { event: event.type, data: event as unknown };
    });
    const sent = frames
      .filter((frame) => frame.event.endsWith('.delta'))
      .reduce((sum, frame) => sum + (frame.data as { delta: string }).delta.length, 0);
    // In many reads: the deltas after the first output come in batches of their own.
    upstream.reply({ sse: sseText(frames), chunkBytes: 400, delayMs: 2 });
    await streamEvents();
    expect(sent).toBeGreaterThan(0);
    expect(records[0]?.cut).toMatchObject({ outputChars: sent, reasoningChars: 0 });
  });

  it('should answer a failure before any output with an HTTP error in the OpenAI shape', async () => {
    const lines = chunkLinesFixture('responses', 'upstream-failed');
    const failedFirst = [lines[0]!, lines.at(-1)!].map((line) => ({
      event: (JSON.parse(line) as { type: string }).type,
      data: JSON.parse(line) as unknown,
    }));
    upstream.reply({ sse: sseText(failedFirst) });
    const failure = (await streamEvents().catch((error: unknown) => error)) as InstanceType<typeof OpenAI.APIError>;
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(failure.status).toBeGreaterThanOrEqual(500);
    expect(failure.headers?.get('x-request-id')).toMatch(/^req_/);
    expect(records[0]).toMatchObject({ status: failure.status, usage: undefined });
  });

  it('should keep the upstream connection for the next stream, and close it when the client leaves', async () => {
    const opened = upstream.openedConnections;
    upstream.reply({ sse: sseFixture('responses', 'upstream-text'), chunkBytes: 64, delayMs: 1 });
    for (let call = 0; call < 3; call++) {
      await streamEvents();
      await new Promise((resolve) => setTimeout(resolve, 20)); // the body's end arrives after its last event
    }
    expect(upstream.openedConnections - opened).toBeLessThanOrEqual(1);

    const closed = upstream.closedConnections;
    records.length = 0;
    const firstEvents = chunkLinesFixture('responses', 'upstream-text')
      .slice(0, 5)
      .map((line) => ({ event: (JSON.parse(line) as { type: string }).type, data: line }));
    upstream.reply({ hang: true, sse: sseText(firstEvents) });
    const controller = new AbortController();
    const stream = await client.responses.create({ model: 'smart', input: 'Hi', stream: true }, { signal: controller.signal });
    for await (const event of stream) if (event.type === 'response.output_text.delta') break; // leaving the loop aborts
    await expect.poll(() => upstream.closedConnections, { timeout: 2_000 }).toBe(closed + 1);
    await expect.poll(() => records.length).toBe(1);
    // The stream had begun: 200, and no usage, since the upstream never reported any (never billed as 0).
    expect(records.at(-1)).toMatchObject({ status: 200, usage: undefined });
  });

  it('should send upstream the same request the translated path sends', async () => {
    upstream.reply({ sse: sseFixture('responses', 'upstream-text') });
    upstream.requests.length = 0;
    await streamEvents();
    expect(upstream.requests[0]?.body).toMatchObject({
      model: 'gpt-5',
      stream: true,
      store: false,
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }],
    });
  });
});

describe('a Responses answer passed through from an OpenAI Responses upstream', () => {
  it('should reach the client as the upstream wrote it, naming the model the client asked for, with its usage recorded', async () => {
    const body = jsonFixture('responses', 'upstream-response');
    upstream.reply({ json: body });
    const response = await client.responses.create({ model: 'smart-latest', input: 'Hi' });
    const { output_text: _, ...fields } = response;
    expect(fields).toEqual({ ...body, model: 'smart-latest' });
    expect(records[0]).toMatchObject({ status: 200, stream: false });
    expect(records[0]?.usage?.inputTokens).toBe((body.usage as { input_tokens: number }).input_tokens);
  });

  it('should answer a failed upstream answer with an HTTP error in the OpenAI shape', async () => {
    upstream.reply({
      json: {
        ...jsonFixture('responses', 'upstream-response'),
        status: 'failed',
        error: { code: 'server_error', message: 'The model crashed.' },
      },
    });
    const failure = (await client.responses.create({ model: 'smart', input: 'Hi' }).catch((error: unknown) => error)) as InstanceType<
      typeof OpenAI.APIError
    >;
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(failure.status).toBeGreaterThanOrEqual(500);
    expect(records[0]).toMatchObject({ status: failure.status, usage: undefined });
  });
});
