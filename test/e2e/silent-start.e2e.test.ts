import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import Anthropic from '@anthropic-ai/sdk';
import { streamText } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';
import {
  anthropicPing,
  chatFrames,
  messagesFrames,
  responsesFrames,
  startTimedUpstream,
  type TimedStep,
  type TimedUpstream,
} from '../helpers/timed-upstream.js';

// A stream whose first token is slow: its headers are held for the failover window (150 ms here),
// then sent with the protocol's opening events, and keep-alives follow (every 100 ms here) until
// the first token. A failure after that is the protocol's in-band error.

let upstream: TimedUpstream;
let running: RunningGateway;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  upstream = await startTimedUpstream();
  running = await startGateway({
    providers: {
      oa: { type: 'openai', apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1` },
      an: { type: 'anthropic', apiKey: 'sk-upstream', baseURL: upstream.url },
      rs: { type: 'openai-responses', apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1` },
    },
    models: [
      { id: 'chat-model', provider: 'oa' },
      { id: 'claude-model', provider: 'an' },
      { id: 'responses-model', provider: 'rs' },
      { id: 'gives-up', provider: 'oa', timeouts: { firstTokenMs: 600 } },
      { id: 'claude-gives-up', provider: 'an', timeouts: { firstTokenMs: 600 } },
      { id: 'responses-gives-up', provider: 'rs', timeouts: { firstTokenMs: 600 } },
    ],
    timeouts: { failoverWindowMs: 150, keepAliveMs: 100, firstTokenMs: 5_000 },
    // Each upstream answer here is scripted once: what a client sees of it, not a retry of it.
    retries: { attempts: 0 },
  });
  openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
});
afterAll(async () => {
  await running.close();
  await running.gateway.close();
  await upstream.close();
});

let closedBefore = 0;
beforeEach(() => {
  closedBefore = upstream.closedEarly;
});

/** A Chat answer whose first token comes after 1.5 s of silence (headers sent at once). */
const slowChat = (order: string[] = []): TimedStep[] => [
  { headers: true },
  { write: chatFrames.opening },
  { waitMs: 1_500 },
  { run: () => order.push('upstream token') },
  { write: chatFrames.deltas('Hello') + chatFrames.deltas(' world') + chatFrames.closing },
];
/** An Anthropic answer: `message_start` at once, then its own pings for 1.5 s, then the text. */
const slowMessages = (order: string[] = []): TimedStep[] => [
  { headers: true },
  { write: messagesFrames.opening },
  { repeat: anthropicPing, everyMs: 200, forMs: 1_500 },
  { run: () => order.push('upstream token') },
  { write: messagesFrames.deltas('Hello') + messagesFrames.deltas(' world') + messagesFrames.closing },
];
/** A Responses answer whose headers and opening come only after 1 s. */
const lateResponses = (): TimedStep[] => {
  const frames = responsesFrames();
  const opening = frames.opening;
  const deltas = frames.deltas('Hello') + frames.deltas(' world');
  return [{ waitMs: 1_000 }, { headers: true }, { write: opening }, { waitMs: 300 }, { write: deltas + frames.closing }];
};

/** POSTs with fetch and reads the whole SSE body; `before(marker)` counts `marker` before the first match of `token`. */
async function rawStream(path: string, body: unknown, token: RegExp) {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${TEST_KEY}`, 'anthropic-version': '2023-06-01' };
  const response = await fetch(`${running.root}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, text, before: (marker: string) => text.slice(0, text.search(token)).split(marker).length - 1 };
}

const errorOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('should have failed'),
    (error: unknown) => error,
  );
const count = (text: string, marker: string) => text.split(marker).length - 1;

describe('a slow first token', () => {
  it('should reach a Chat client with its headers first, SSE comments while waiting, and the text', async () => {
    const order: string[] = [];
    upstream.script(slowChat(order), slowChat());
    const stream = await openai.chat.completions.create({ model: 'chat-model', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    order.push('headers');
    let text = '';
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta.content ?? '';
      if (piece !== '' && text === '') order.push('token');
      text += piece;
    }
    // The client had the headers before the upstream even wrote its first token.
    expect(order).toEqual(['headers', 'upstream token', 'token']);
    expect(text).toBe('Hello world');

    const raw = await rawStream(
      '/v1/chat/completions',
      { model: 'chat-model', stream: true, messages: [{ role: 'user', content: 'Hi' }] },
      /"content":"Hello"/,
    );
    expect(raw.before(': keep-alive\n\n')).toBeGreaterThanOrEqual(3);
    expect(raw.text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('should pass a Messages stream through with one message_start and pings while waiting', async () => {
    const order: string[] = [];
    upstream.script(slowMessages(order), slowMessages());
    const stream = await anthropic.messages.create({
      model: 'claude-model',
      max_tokens: 50,
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    order.push('headers');
    let text = '';
    for await (const event of stream) {
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
        if (text === '') order.push('token');
        text += event.delta.text;
      }
    }
    expect(order).toEqual(['headers', 'upstream token', 'token']);
    expect(text).toBe('Hello world');

    const raw = await rawStream(
      '/v1/messages',
      { model: 'claude-model', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'Hi' }] },
      /text_delta/,
    );
    expect(count(raw.text, 'event: message_start')).toBe(1);
    expect(raw.before('event: ping\n')).toBeGreaterThanOrEqual(3);
    // The message names the caller's model, as the upstream's own message_start did once renamed.
    expect(raw.text).toContain('"model":"claude-model"');
  });

  it('should give a Messages client of a Chat upstream a valid message_start of its own, then the text', async () => {
    const late: TimedStep[] = [
      { waitMs: 1_000 },
      ...slowChat().slice(0, 2),
      { write: chatFrames.deltas('Hello') + chatFrames.deltas(' world') + chatFrames.closing },
    ];
    upstream.script(late, late);
    const message = await anthropic.messages
      .stream({ model: 'chat-model', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] })
      .finalMessage();
    expect(message.content).toMatchObject([{ type: 'text', text: 'Hello world' }]);
    expect(message.id).toMatch(/^msg_/);
    expect(message.model).toBe('chat-model');
    expect(message.usage.output_tokens).toBe(3);

    // The gateway's message_start went out at the commit, before the upstream even answered; pings followed.
    const raw = await rawStream(
      '/v1/messages',
      { model: 'chat-model', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'Hi' }] },
      /text_delta/,
    );
    expect(raw.text.startsWith('event: message_start\n')).toBe(true);
    expect(count(raw.text, 'event: message_start')).toBe(1);
    expect(raw.before('event: ping\n')).toBeGreaterThanOrEqual(3);
  });

  it('should pass a late Responses stream through with keep-alives until its own opening, one of each', async () => {
    upstream.script(lateResponses(), lateResponses());
    const final = await openai.responses.stream({ model: 'responses-model', input: 'Hi' }).finalResponse();
    expect(final.output_text).toBe('Hello world');
    expect(final.id).toBe('resp_up');

    const raw = await rawStream('/v1/responses', { model: 'responses-model', input: 'Hi', stream: true }, /output_text\.delta/);
    expect(count(raw.text, 'event: response.created')).toBe(1);
    expect(count(raw.text, 'event: response.in_progress')).toBe(1);
    expect(raw.text.slice(0, raw.text.indexOf('event: response.created')).split(': keep-alive\n\n').length - 1).toBeGreaterThanOrEqual(3);
    const sequence = [...raw.text.matchAll(/"sequence_number":(\d+)/g)].map((match) => Number(match[1]));
    expect(sequence).toEqual(sequence.map((_, index) => index));
  });

  it('should give a Responses client of a Chat upstream its opening events at the commit, then keep-alives', async () => {
    const late: TimedStep[] = [
      { waitMs: 1_000 },
      ...slowChat().slice(0, 2),
      { write: chatFrames.deltas('Hello') + chatFrames.deltas(' world') + chatFrames.closing },
    ];
    upstream.script(late, late);
    const final = await openai.responses.stream({ model: 'chat-model', input: 'Hi' }).finalResponse();
    expect(final.output_text).toBe('Hello world');

    const raw = await rawStream('/v1/responses', { model: 'chat-model', input: 'Hi', stream: true }, /output_text\.delta/);
    expect(raw.text.startsWith('event: response.created\n')).toBe(true);
    expect(raw.text.indexOf('event: response.in_progress')).toBeLessThan(raw.text.indexOf(': keep-alive'));
    expect(raw.before(': keep-alive\n\n')).toBeGreaterThanOrEqual(3);
    expect(count(raw.text, 'event: response.created')).toBe(1);
  });

  it('should stream through the AI SDK (OpenAI Chat and Anthropic) while keep-alives are written', async () => {
    upstream.script(slowChat(), slowMessages());
    const chat = streamText({
      model: createOpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL }).chat('chat-model'),
      prompt: 'Hi',
      maxRetries: 0,
    });
    expect(await chat.text).toBe('Hello world');
    const claude = streamText({
      model: createAnthropic({ apiKey: TEST_KEY, baseURL: `${running.root}/v1` })('claude-model'),
      prompt: 'Hi',
      maxRetries: 0,
    });
    expect(await claude.text).toBe('Hello world');
  });
});

describe('an upstream error before the first token', () => {
  const overloaded = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';

  it('should still get its real status inside the failover window', async () => {
    upstream.script([{ headers: true }, { write: messagesFrames.opening + overloaded }]);
    const error = await errorOf(
      anthropic.messages.create({ model: 'claude-model', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
    );
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
  });

  it('should be the in-band error once the window passed', async () => {
    upstream.script([{ headers: true }, { write: messagesFrames.opening }, { waitMs: 400 }, { write: overloaded }]);
    const stream = await anthropic.messages.create({
      model: 'claude-model',
      max_tokens: 50,
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const failure = await errorOf(
      (async () => {
        for await (const _ of stream) {
          // message_start, then the error
        }
      })(),
    );
    expect((failure as Error).message).toContain('overloaded_error');
  });
});

describe('a failure after the headers went out', () => {
  it('should end a Chat stream with the in-band error naming the first-token limit, and close the upstream', async () => {
    upstream.script([{ hang: true }]);
    const stream = await openai.chat.completions.create({ model: 'gives-up', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    const failure = await (async () => {
      for await (const _ of stream) expect.unreachable('no chunk before the error');
    })().then(
      () => expect.unreachable('should have failed'),
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as Error).message).toContain('timeouts.firstTokenMs');
    await upstream.closedEarlyAtLeast(closedBefore + 1);
  });

  it('should end a Messages stream with message_start, pings, then event: error', async () => {
    upstream.script([{ hang: true }], [{ headers: true }, { write: messagesFrames.opening }, { hang: true }]);
    const stream = await anthropic.messages.create({
      model: 'claude-gives-up',
      max_tokens: 50,
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const event of stream) seen.push(event.type);
    })().then(
      () => expect.unreachable('should have failed'),
      (error: unknown) => error,
    );
    expect(seen).toEqual(['message_start']);
    expect((failure as Error).message).toContain('timeout_error');

    // Passed through: the upstream's own message_start, then the gateway's pings and its error event.
    const raw = await rawStream(
      '/v1/messages',
      { model: 'claude-gives-up', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'Hi' }] },
      /event: error/,
    );
    expect(raw.status).toBe(200);
    expect(count(raw.text, 'event: message_start')).toBe(1);
    expect(raw.text).toContain('"id":"msg_up"');
    expect(raw.before('event: ping\n')).toBeGreaterThanOrEqual(2);
    expect(raw.text).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"timeout_error"/);
    await upstream.closedEarlyAtLeast(closedBefore + 2);
  });

  it('should end a Responses stream with response.failed numbered after the gateway opening', async () => {
    upstream.script([{ hang: true }]);
    const stream = await openai.responses.create({ model: 'responses-gives-up', input: 'Hi', stream: true });
    const events: Array<{ type: string; sequence_number: number }> = [];
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.type)).toEqual(['response.created', 'response.in_progress', 'response.failed']);
    expect(events.map((event) => event.sequence_number)).toEqual([0, 1, 2]);
    const failed = events[2] as unknown as { response: { status: string; error: { message: string } } };
    expect(failed.response.status).toBe('failed');
    expect(failed.response.error.message).toContain('timeouts.firstTokenMs');
    await upstream.closedEarlyAtLeast(closedBefore + 1);
  });
});
