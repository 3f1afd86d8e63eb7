import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { customErrorCode, GatewayError, type CanonicalStreamEvent } from '../../src/canonical/index.js';
import { gateway } from '../../src/gateway/gateway.js';
import type { Logger } from '../../src/logger.js';
import { silentLogger } from '../../src/logger.js';
import type { GatewayOptions } from '../../src/gateway/options.js';
import type { Stage, StageContext } from '../../src/pipeline/stage.js';
import { createMockProvider, DEFAULT_MOCK_REPLY } from '../../src/providers/mock/index.js';
import { chatCodec } from '../../src/protocols/chat-completions/index.js';
import type { RequestRecord } from '../../src/usage/record-stage.js';
import { ENDPOINT_KEY, serveEndpoint, tracingStages, type ServedEndpoint } from '../helpers/serve-endpoint.js';

let served: ServedEndpoint | undefined;
afterEach(() => served?.close());

/** A stage that logs its parts into the list the test reads (`seen` is filled once the endpoint starts). */
function traced(name: string, log: () => string[], extra: Partial<Stage> = {}): Stage {
  return {
    name,
    before: () => void log().push(`${name}.before`),
    after: (context) => void log().push(`${name}.after ${context.status}${context.errorCode === undefined ? '' : ` ${context.errorCode}`}`),
    ...extra,
  };
}

async function serve(stages: (log: () => string[]) => Stage[], options: GatewayOptions = {}) {
  const records: RequestRecord[] = [];
  let seen: string[] = [];
  const log = () => seen;
  served = await serveEndpoint(chatCodec, tracingStages(records), { stages: stages(log), ...options });
  seen = served.seen;
  const client = new OpenAI({ apiKey: ENDPOINT_KEY, baseURL: served.baseURL, maxRetries: 0 });
  return { client, seen, records };
}

const hello = [{ role: 'user' as const, content: 'Hello' }];

/** Waits for the after-parts, which run once the answer ended (the client may see it first). */
async function settled(seen: string[], last: string): Promise<void> {
  for (let tries = 0; tries < 500 && seen.at(-1) !== last; tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('the stage pipeline', () => {
  it("should run before-parts in order around the built-ins, and after-parts in reverse, users' stages where they are placed", async () => {
    const { client, seen } = await serve((log) => [
      traced('inner', log),
      traced('after-auth', log, { position: { after: 'authenticate' } }),
      traced('before-admit', log, { position: { before: 'admit' } }),
      traced('after-admit', log, { position: { after: 'admit' } }),
    ]);
    await client.chat.completions.create({ model: 'mock', messages: hello });
    await settled(seen, 'record');
    expect(seen).toEqual([
      'authenticate',
      'after-auth.before',
      'before-admit.before',
      'admit',
      'after-admit.before',
      'inner.before',
      'call',
      'inner.after 200',
      'after-admit.after 200',
      'release',
      'before-admit.after 200',
      'after-auth.after 200',
      'record',
    ]);
  });

  it("should answer a stage's refusal in the caller's protocol, skip what comes after it, and still run the after-parts of what ran", async () => {
    const refuse = (log: () => string[]) =>
      traced('guard', log, {
        position: { before: 'admit' },
        before: () => {
          log().push('guard.before');
          throw new GatewayError({ kind: 'invalid_request', code: customErrorCode('not_allowed_here'), status: 400, message: 'Not here.' });
        },
      });
    const { client, seen, records } = await serve((log) => [
      traced('early', log, { position: { after: 'authenticate' } }),
      refuse(log),
      traced('inner', log),
    ]);
    const error = await client.chat.completions.create({ model: 'mock', messages: hello }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'not_allowed_here', message: expect.stringContaining('Not here.') });
    await settled(seen, 'record');
    expect(seen).toEqual([
      'authenticate',
      'early.before',
      'guard.before',
      'guard.after 400 not_allowed_here',
      'early.after 400 not_allowed_here',
      'record',
    ]);
    expect(records[0]).toMatchObject({ status: 400, errorCode: 'not_allowed_here', attempts: 0 });
  });

  it('should answer a stage that throws something else with a 500 that does not show it, and log it', async () => {
    const errors: unknown[] = [];
    const logger: Logger = { ...silentLogger, error: (fields: unknown) => void errors.push(fields) };
    const { client, seen } = await serve(
      (log) => [
        traced('broken', log, {
          before: () => {
            throw new Error('secret detail');
          },
        }),
      ],
      { logger },
    );
    const error = await client.chat.completions.create({ model: 'mock', messages: hello }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 500 });
    expect(String((error as Error).message)).not.toContain('secret detail');
    await settled(seen, 'record');
    expect(seen).toContain('broken.after 500 INTERNAL_ERROR');
    expect(errors).toEqual([expect.objectContaining({ err: expect.objectContaining({ message: 'secret detail' }) })]);
  });

  it('should keep running after-parts when one throws, and log it', async () => {
    const errors: unknown[] = [];
    const logger: Logger = { ...silentLogger, error: (fields: unknown) => void errors.push(fields) };
    const { client, seen } = await serve(
      (log) => [
        traced('outer', log, { position: { after: 'authenticate' } }),
        traced('throws', log, {
          after: () => {
            throw new Error('after failed');
          },
        }),
      ],
      { logger },
    );
    const answer = await client.chat.completions.create({ model: 'mock', messages: hello });
    expect(answer.choices[0]?.message.content).toBe(DEFAULT_MOCK_REPLY);
    await settled(seen, 'record');
    expect(seen.slice(-3)).toEqual(['release', 'outer.after 200', 'record']);
    expect(errors).toEqual([expect.objectContaining({ stage: 'throws' })]);
  });

  it('should not call the provider when a stage answers, and stream its answer to a streamed request', async () => {
    const answer: Stage = {
      name: 'canned',
      before: () => ({
        response: {
          id: 'canned_1',
          model: 'mock',
          content: [{ type: 'text', text: 'from the stage' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: { inputTokens: 1, outputTokens: 3 },
        },
      }),
    };
    const { client, seen, records } = await serve(() => [answer]);
    const plain = await client.chat.completions.create({ model: 'mock', messages: hello });
    expect(plain.choices[0]?.message.content).toBe('from the stage');
    const stream = await client.chat.completions.create({ model: 'mock', messages: hello, stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('from the stage');
    await settled(seen, 'record');
    expect(seen).not.toContain('call');
    expect(records.map((record) => [record.answeredBy, record.deployment, record.provider, record.attempts])).toEqual([
      ['canned', 'stage:canned', undefined, 0],
      ['canned', 'stage:canned', undefined, 0],
    ]);
  });

  it("should let a stage watch a stream's events as they go out, and run its after-part when the client leaves mid-stream", async () => {
    const watched: CanonicalStreamEvent['type'][] = [];
    const ends: Array<{ status: number; cut: boolean; streaming: boolean }> = [];
    const watcher: Stage = {
      name: 'watcher',
      watch: (_context, event) => void watched.push(event.type),
      after: (context: StageContext) =>
        void ends.push({ status: context.status, cut: context.usage === undefined, streaming: context.streaming }),
    };
    const { client, seen } = await serve(() => [watcher], {
      providers: { slow: createMockProvider({ reply: 'one two three four five six seven eight nine ten', chunkDelayMs: 40 }) },
      models: [{ id: 'slow', provider: 'slow' }],
    });
    const whole = await client.chat.completions.create({ model: 'slow', messages: hello, stream: true });
    for await (const chunk of whole) void chunk;
    await settled(seen, 'record');
    expect(watched[0]).toBe('start');
    expect(watched).toContain('text-delta');
    expect(watched.at(-1)).toBe('finish');
    expect(ends).toEqual([{ status: 200, cut: false, streaming: true }]);

    const controller = new AbortController();
    const cut = await client.chat.completions.create({ model: 'slow', messages: hello, stream: true }, { signal: controller.signal });
    seen.length = 0;
    for await (const chunk of cut) {
      if (chunk.choices[0]?.delta.content) break; // leaves after the first text
    }
    controller.abort();
    await settled(seen, 'record');
    expect(ends[1]).toEqual({ status: 200, cut: true, streaming: true });
  });

  it("should refuse stages whose names clash or whose position is not a built-in's", () => {
    const named = (name: string): Stage => ({ name });
    expect(() => gateway({ logger: silentLogger, stages: [named('a'), named('a')] })).toThrow(/used twice/);
    expect(() => gateway({ logger: silentLogger, stages: [named('admit')] })).toThrow(/built-in/);
    expect(() =>
      gateway({ logger: silentLogger, stages: [{ name: 'x', position: { before: 'authenticate' } } as unknown as Stage] }),
    ).toThrow(/before/);
    expect(() => gateway({ logger: silentLogger, stages: [{ name: 'x', before: 'nope' } as unknown as Stage] })).toThrow(/function/);
  });
  it('should leave a feature that is off out of the compiled list', async () => {
    const bare = gateway({ logger: silentLogger });
    expect(bare.stagesFor('mock')).toEqual(['authenticate', 'fit', 'police', 'call']);
    const full = gateway({
      logger: silentLogger,
      apiKeys: ['sk-stages-0123456789abcdef'],
      requestLog: { logger: silentLogger as never },
      limits: { keys: { options: { requestsPerMinute: 10 } } },
      stages: [{ name: 'own', position: { after: 'authenticate' } }],
    });
    expect(full.stagesFor('mock')).toEqual(['record', 'authenticate', 'own', 'fit', 'police', 'admit', 'call']);
    expect(() => full.stagesFor('nope')).toThrow(/nope/);
    await Promise.all([bare.close(), full.close()]);
  });
});
