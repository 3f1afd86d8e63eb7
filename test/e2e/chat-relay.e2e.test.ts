// A Chat Completions client served by an OpenAI upstream gets the upstream's stream passed through
// (the same-protocol fast path), with every guarantee of the translated path.
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIProvider } from '../../src/providers/openai/index.js';
import { chatCodec } from '../../src/protocols/chat-completions/index.js';
import type { RequestRecord } from '../../src/usage/record-stage.js';
import { chunkLinesFixture } from '../helpers/fixtures.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { ENDPOINT_KEY, serveEndpoint, type ServedEndpoint } from '../helpers/serve-endpoint.js';

let upstream: MockUpstream;
let served: ServedEndpoint;
let client: OpenAI;
const records: RequestRecord[] = [];

beforeAll(async () => {
  upstream = await startMockUpstream();
  served = await serveEndpoint(chatCodec, () => ({ record: { record: (entry) => void records.push(entry) } }), {
    providers: { openai: createOpenAIProvider({ apiKey: 'sk-upstream', baseURL: upstream.url }) },
    models: [{ id: 'gpt', provider: 'openai', upstreamModel: 'gpt-4o' }],
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

const hello = { model: 'gpt', messages: [{ role: 'user' as const, content: 'Hi' }] };

/** The text fixture with a member the translated path would not carry: seen by the client only when passed through. */
const upstreamText = (lines = chunkLinesFixture('chat-completions', 'upstream-text')) =>
  lines.map((line) => `data: ${line.replace('"choices"', '"system_fingerprint":"fp_up","choices"')}\n\n`).join('');

/** Waits for the record, written once the answer ended (the client may see the end first). */
async function recorded(): Promise<RequestRecord> {
  for (let tries = 0; tries < 500 && records.length === 0; tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  return records[0]!;
}

describe('a Chat stream passed through from an OpenAI upstream', () => {
  it("should give the SDK the upstream's chunks naming the client's model, and the usage only when asked", async () => {
    upstream.reply({ sse: upstreamText(), chunkBytes: 7 });
    const chunks = [];
    for await (const chunk of await client.chat.completions.create({ ...hello, stream: true })) chunks.push(chunk);
    // The upstream's own chunks, passed on, not re-encoded.
    expect(new Set(chunks.map((chunk) => chunk.system_fingerprint))).toEqual(new Set(['fp_up']));
    expect(new Set(chunks.map((chunk) => chunk.id))).toEqual(new Set(['chatcmpl-1']));
    expect(new Set(chunks.map((chunk) => chunk.model))).toEqual(new Set(['gpt']));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Héllo wörld 🌍!');
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false);
    expect(await recorded()).toMatchObject({ status: 200, usage: { inputTokens: 9, outputTokens: 3, cachedInputTokens: 4 } });

    records.length = 0;
    upstream.reply({ sse: upstreamText() });
    const stream = client.chat.completions.stream({ ...hello, stream: true, stream_options: { include_usage: true } });
    const completion = await stream.finalChatCompletion();
    expect(completion).toMatchObject({ model: 'gpt', choices: [{ message: { content: 'Héllo wörld 🌍!' }, finish_reason: 'stop' }] });
    expect(completion.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 3 });
    // What went upstream asked for usage either way.
    expect(upstream.requests.at(-1)?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('should end a stream the upstream cut short with an error the SDK raises, billing the text that was sent', async () => {
    const cut = chunkLinesFixture('chat-completions', 'upstream-text').slice(0, 3);
    upstream.reply({ sse: upstreamText(cut) });
    const failure = await client.chat.completions
      .stream({ ...hello, stream: true })
      .finalChatCompletion()
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(await recorded()).toMatchObject({ status: 200, errorCode: 'STREAM_ENDED_EARLY', usage: undefined });
    expect(records[0]?.cut).toMatchObject({ outputChars: 'Héllo wörld 🌍!'.length, reasoningChars: 0 });
  });

  it("should pass a non-streamed answer on as the upstream wrote it, naming the client's model", async () => {
    upstream.reply({
      json: {
        id: 'chatcmpl-up',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-4o-2024',
        system_fingerprint: 'fp_x',
        x_upstream: 'kept',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hi!' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
      },
    });
    const completion = await client.chat.completions.create(hello);
    expect(completion).toMatchObject({
      id: 'chatcmpl-up',
      model: 'gpt',
      system_fingerprint: 'fp_x',
      x_upstream: 'kept',
      choices: [{ message: { content: 'Hi!' } }],
    });
    expect(await recorded()).toMatchObject({ status: 200, usage: { inputTokens: 5, outputTokens: 2 } });
  });
});
