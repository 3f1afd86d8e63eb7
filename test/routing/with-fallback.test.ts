import { describe, expect, it } from 'vitest';
import {
  GatewayError,
  upstreamErrorCode,
  type CanonicalRequest,
  type CanonicalResponse,
  type UpstreamAttempt,
} from '../../src/canonical/index.js';
import { createProviderContext, RequestAbort } from '../../src/providers/transport/cancellation.js';
import type { ProviderAdapter } from '../../src/providers/types.js';
import { silentLogger } from '../../src/logger.js';
import { DEFAULT_COOLDOWNS, MemoryCooldownStore } from '../../src/routing/cooldown.js';
import { createModelTable } from '../../src/routing/create-model-table.js';
import type { RoutedModelOptions } from '../../src/routing/routed-model-options.js';
import type { Route } from '../../src/routing/resolve-route.js';
import { createRoutingCall, type RoutingCallOptions } from '../../src/routing/with-fallback.js';

type Step = 'ok' | GatewayError;
const overloaded = () => new GatewayError({ kind: 'overloaded', code: upstreamErrorCode('OVERLOADED'), message: 'busy' });
const limited = (retryAfter: number) => new GatewayError({ kind: 'rate_limit', code: 'RATE_LIMITED', message: 'slow down', retryAfter });
const invalid = () => new GatewayError({ kind: 'invalid_request', code: upstreamErrorCode('INVALID_VALUE'), message: 'bad' });

/** A provider answering each call with the next step of its script (the last repeats), recording the models it was called for. */
function scripted(id: string, ...steps: Step[]): ProviderAdapter & { calls: string[] } {
  const calls: string[] = [];
  return {
    id,
    calls,
    async generate(request: CanonicalRequest): Promise<CanonicalResponse> {
      calls.push(request.model);
      const step = steps[Math.min(calls.length - 1, steps.length - 1)]!;
      if (step !== 'ok') throw step;
      return {
        id: 'r',
        model: request.model,
        content: [{ type: 'text', text: `from ${id}` }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { inputTokens: 1, outputTokens: 1 },
      } as CanonicalResponse;
    },
    async *stream() {
      throw new Error('not used');
    },
  };
}

function setup(models: RoutedModelOptions[], providers: Record<string, ProviderAdapter>, options: Partial<RoutingCallOptions> = {}) {
  const { table } = createModelTable(models, providers);
  const call = createRoutingCall({
    models: table,
    retries: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 100 },
    random: () => 0,
    ...options,
  });
  const abort = new RequestAbort();
  const context = createProviderContext(abort, { requestId: 'req_test', gatewayModel: models[0]!.id, logger: silentLogger });
  const routeOf = (id: string): Route => ({
    model: table.get(id)!,
    request: { model: id, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] } as unknown as CanonicalRequest,
    inbound: 'chat',
    adaptations: [],
  });
  return { call, abort, context, routeOf };
}

const textOf = (response: CanonicalResponse) => (response.content[0] as { text: string }).text;

describe('createRoutingCall', () => {
  it('should not retry after the stream control says the headers went out', async () => {
    const east = scripted('east', overloaded());
    const { call, context, routeOf } = setup(
      [
        { id: 'm', provider: 'east', fallbacks: ['n'] },
        { id: 'n', provider: 'west' },
      ],
      { east, west: scripted('west', 'ok') },
    );
    await expect(call.generate(routeOf('m'), context, { committed: () => true } as never)).rejects.toMatchObject({ code: 'OVERLOADED' });
    expect(east.calls).toHaveLength(1);
  });

  it('should skip a fallback model the caller may not call', async () => {
    const east = scripted('east', overloaded());
    const west = scripted('west', 'ok');
    const north = scripted('north', 'ok');
    const { call, context, routeOf } = setup(
      [
        { id: 'm', provider: 'east', fallbacks: ['forbidden', 'allowed'] },
        { id: 'forbidden', provider: 'west' },
        { id: 'allowed', provider: 'north' },
      ],
      { east, west, north },
    );
    const answer = await call.generate(routeOf('m'), context, { mayCall: (id) => id !== 'forbidden' });
    expect(textOf(answer.response)).toBe('from north');
    expect(west.calls).toHaveLength(0);
  });

  it('should not fall back on a request the upstream calls invalid', async () => {
    const east = scripted('east', invalid());
    const west = scripted('west', 'ok');
    const { call, context, routeOf } = setup(
      [
        { id: 'm', provider: 'east', fallbacks: ['n'] },
        { id: 'n', provider: 'west' },
      ],
      { east, west },
    );
    await expect(call.generate(routeOf('m'), context)).rejects.toMatchObject({ code: 'INVALID_VALUE' });
    expect([east.calls.length, west.calls.length]).toEqual([1, 0]);
  });

  it('should make no attempt after the client left during a backoff', async () => {
    const east = scripted('east', limited(0.05), 'ok');
    const { call, abort, context, routeOf } = setup([{ id: 'm', provider: 'east' }], { east });
    const pending = call.generate(routeOf('m'), context);
    setTimeout(() => abort.abort(), 10);
    await expect(pending).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(east.calls).toHaveLength(1);
  });

  it('should cool a deployment down for a long retry-after, and send the next request elsewhere', async () => {
    const east = scripted('east', limited(60), 'ok');
    const west = scripted('west', 'ok');
    const cooldowns = new MemoryCooldownStore(DEFAULT_COOLDOWNS);
    const { call, context, routeOf } = setup(
      [{ id: 'm', deployments: [{ provider: 'east', weight: 10 }, { provider: 'west' }] }],
      { east, west },
      { cooldowns },
    );
    expect(textOf((await call.generate(routeOf('m'), context)).response)).toBe('from west');
    await call.settled();
    expect((await cooldowns.standings(['east/m'])).get('east/m')).toMatchObject({ state: 'cooling' });
    expect(textOf((await call.generate(routeOf('m'), context)).response)).toBe('from west');
    expect(east.calls).toHaveLength(1);
    expect(call.counters()).toMatchObject({ attempts: 3, failedAttempts: 1, cooldowns: 1 });
  });

  it('should still try the deployment back soonest when every one is cooling down, rather than refuse', async () => {
    const east = scripted('east', 'ok');
    const west = scripted('west', 'ok');
    const cooldowns = new MemoryCooldownStore(DEFAULT_COOLDOWNS);
    await cooldowns.failed('east/m', 60_000);
    await cooldowns.failed('west/m', 20_000);
    const { call, context, routeOf } = setup(
      [{ id: 'm', deployments: [{ provider: 'east' }, { provider: 'west' }] }],
      { east, west },
      { cooldowns },
    );
    expect(textOf((await call.generate(routeOf('m'), context)).response)).toBe('from west');
    // It answered: back in service.
    await call.settled();
    expect((await cooldowns.standings(['west/m'])).has('west/m')).toBe(false);
  });

  it('should prefer a fallback model in service over a model whose deployments all cool down', async () => {
    const east = scripted('east', 'ok');
    const west = scripted('west', 'ok');
    const cooldowns = new MemoryCooldownStore(DEFAULT_COOLDOWNS);
    await cooldowns.failed('east/m', 60_000);
    const { call, context, routeOf } = setup(
      [
        { id: 'm', provider: 'east', fallbacks: ['n'] },
        { id: 'n', provider: 'west' },
      ],
      { east, west },
      { cooldowns },
    );
    expect(textOf((await call.generate(routeOf('m'), context)).response)).toBe('from west');
    expect(east.calls).toHaveLength(0);
  });

  it('should take a deployment whose credentials are refused out, and not retry it', async () => {
    const refused = new GatewayError({
      kind: 'upstream',
      status: 502,
      code: 'UPSTREAM_AUTHENTICATION_FAILED',
      retryable: false,
      message: 'refused',
    });
    const east = scripted('east', refused);
    const west = scripted('west', overloaded(), 'ok');
    const { call, context, routeOf } = setup([{ id: 'm', deployments: [{ provider: 'east', weight: 10 }, { provider: 'west' }] }], {
      east,
      west,
    });
    expect(textOf((await call.generate(routeOf('m'), context)).response)).toBe('from west');
    expect([east.calls.length, west.calls.length]).toEqual([1, 2]);
  });

  describe('a model with one deployment and nowhere else to go (its first attempt outside the loop)', () => {
    const attemptsOf = () => {
      const seen: { attempt: number; code: string | undefined }[] = [];
      return {
        seen,
        control: { onAttempt: (attempt: UpstreamAttempt) => seen.push({ attempt: attempt.attempt, code: attempt.error?.code }) },
      };
    };

    it('should retry it after a retryable failure, numbering and counting each attempt once', async () => {
      const east = scripted('east', overloaded(), 'ok');
      const { call, context, routeOf } = setup([{ id: 'm', provider: 'east' }], { east });
      const { seen, control } = attemptsOf();
      expect(textOf((await call.generate(routeOf('m'), context, control)).response)).toBe('from east');
      expect(seen).toEqual([
        { attempt: 1, code: 'OVERLOADED' },
        { attempt: 2, code: undefined },
      ]);
      expect(call.counters()).toMatchObject({ attempts: 2, failedAttempts: 1, retries: 1, fallbacks: 0 });
    });

    it('should answer with its last error once its retries are spent', async () => {
      const east = scripted('east', overloaded());
      const { call, context, routeOf } = setup([{ id: 'm', provider: 'east' }], { east });
      const { seen, control } = attemptsOf();
      await expect(call.generate(routeOf('m'), context, control)).rejects.toMatchObject({ code: 'OVERLOADED' });
      expect(seen.map((attempt) => attempt.attempt)).toEqual([1, 2, 3]);
    });

    it('should answer with the upstream error, and not retry, when the client left during the first attempt', async () => {
      let leave = () => undefined as void;
      const east: ProviderAdapter & { calls: number } = {
        id: 'east',
        calls: 0,
        async generate() {
          east.calls += 1;
          leave();
          throw overloaded();
        },
        async *stream() {
          throw new Error('not used');
        },
      };
      const { call, context, routeOf, abort } = setup([{ id: 'm', provider: 'east' }], { east });
      leave = () => abort.abort();
      await expect(call.generate(routeOf('m'), context)).rejects.toMatchObject({ code: 'OVERLOADED' });
      expect(east.calls).toBe(1);
    });

    it('should not retry a request the upstream calls invalid', async () => {
      const east = scripted('east', invalid());
      const { call, context, routeOf } = setup([{ id: 'm', provider: 'east' }], { east });
      await expect(call.generate(routeOf('m'), context)).rejects.toMatchObject({ code: 'INVALID_VALUE' });
      expect(east.calls).toHaveLength(1);
    });

    it('should count a bug (not a GatewayError) as an internal error and hand it on, without retrying', async () => {
      const bug = new TypeError('broken adapter');
      const east: ProviderAdapter & { calls: number } = {
        id: 'east',
        calls: 0,
        async generate() {
          east.calls += 1;
          throw bug;
        },
        async *stream() {
          throw new Error('not used');
        },
      };
      const { call, context, routeOf } = setup([{ id: 'm', provider: 'east' }], { east });
      const { seen, control } = attemptsOf();
      await expect(call.generate(routeOf('m'), context, control)).rejects.toBe(bug);
      expect(seen).toEqual([{ attempt: 1, code: 'INTERNAL_ERROR' }]);
      expect(east.calls).toBe(1);
    });
  });
});
