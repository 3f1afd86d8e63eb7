import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../../src/canonical/index.js';
import { silentLogger } from '../../src/logger.js';
import { createProviderContext, RequestAbort, upstreamSignal } from '../../src/providers/transport/cancellation.js';
import { CallDeadline } from '../../src/routing/call-deadline.js';
import type { EventReader, StreamBatch } from '../../src/routing/event-reader.js';
import { DEFAULT_TIMEOUTS, resolveTimeouts } from '../../src/routing/timeouts.js';

const limits = resolveTimeouts(DEFAULT_TIMEOUTS, { connectMs: 100, firstTokenMs: 1_000, idleMs: 300, totalMs: 5_000 });
const labels = { model: 'm', provider: 'p' };
const batch: StreamBatch = { events: [{ type: 'text-delta', id: 't', delta: 'x' }] };

/** A reader whose reads wait until `deliver()` or until its call's cancellation fails them, as the built-in transport's do. */
function pendingReader(deadline: CallDeadline) {
  let waiting: { resolve: (batch: StreamBatch) => void; reject: (error: Error) => void } | undefined;
  const cancellation = upstreamSignal(deadline.context) as RequestAbort;
  cancellation.listen(() =>
    waiting?.reject(new GatewayError({ kind: 'timeout', code: 'REQUEST_ABORTED', status: 499, message: 'cancelled' })),
  );
  const reader: EventReader = {
    next: () => new Promise((resolve, reject) => (waiting = { resolve, reject })),
    stop: async () => undefined,
  };
  return { reader, deliver: () => waiting?.resolve(batch), cancellation };
}

let request: RequestAbort;
beforeEach(() => {
  vi.useFakeTimers();
  request = new RequestAbort();
});
afterEach(() => vi.useRealTimers());

const contextOf = () => createProviderContext(request, { requestId: 'req_1', gatewayModel: 'm', logger: silentLogger });

describe('CallDeadline', () => {
  it('should fail a stream with no output by its first-token limit, cancelling only the call', async () => {
    const deadline = new CallDeadline(contextOf(), limits, true, labels);
    const { reader, cancellation } = pendingReader(deadline);
    const read = deadline.guard(reader).next();
    const failure = read.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(999);
    expect(cancellation.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await failure).toMatchObject({ code: 'UPSTREAM_FIRST_TOKEN_TIMEOUT', status: 504, retryable: true });
    expect(cancellation.aborted).toBe(true);
    expect(request.aborted).toBe(false); // the request lives on: a retry can use it
  });

  it('should let reads keep a stream alive past its idle limit, then fail it at the first longer gap', async () => {
    const deadline = new CallDeadline(contextOf(), limits, true, labels);
    const { reader, deliver } = pendingReader(deadline);
    const guarded = deadline.guard(reader);
    deadline.outputStarted();
    for (let read = 0; read < 5; read++) {
      const next = guarded.next();
      await vi.advanceTimersByTimeAsync(250);
      deliver();
      expect(await next).toBe(batch);
    }
    const silent = guarded.next().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(300);
    expect(await silent).toMatchObject({ code: 'UPSTREAM_IDLE_TIMEOUT' });
  });

  it('should not take a client that reads slowly for a silent upstream', async () => {
    const deadline = new CallDeadline(contextOf(), limits, true, labels);
    const { reader } = pendingReader(deadline);
    const guarded = deadline.guard(reader);
    deadline.outputStarted();
    await vi.advanceTimersByTimeAsync(1_000); // the client's socket is full: nothing reads
    expect(deadline.expired).toBeUndefined();
    const silent = guarded.next().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(299);
    expect(deadline.expired).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(await silent).toMatchObject({ code: 'UPSTREAM_IDLE_TIMEOUT' });
  });

  it('should fail a call stuck waiting for a connection by its connect limit, not before the transport started connecting', async () => {
    const deadline = new CallDeadline(contextOf(), limits, false, labels);
    const cancellation = upstreamSignal(deadline.context) as RequestAbort;
    await vi.advanceTimersByTimeAsync(150); // a provider that has not begun its call yet
    expect(cancellation.aborted).toBe(false);
    cancellation.watch?.connecting();
    await vi.advanceTimersByTimeAsync(100);
    expect(deadline.expired?.code).toBe('UPSTREAM_CONNECT_TIMEOUT');
    expect(cancellation.aborted).toBe(true);
  });

  it('should not fire once connected and finished, and follow the request when the client leaves', async () => {
    const deadline = new CallDeadline(contextOf(), limits, false, labels);
    const cancellation = upstreamSignal(deadline.context) as RequestAbort;
    cancellation.watch?.connecting();
    cancellation.watch?.connected();
    const answer = deadline.settle(new Promise((resolve) => setTimeout(() => resolve('ok'), 2_000)));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await answer).toBe('ok');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(deadline.expired).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);

    const second = new CallDeadline(contextOf(), limits, false, labels);
    request.abort();
    expect(second.context.signal.aborted).toBe(true);
    expect(second.expired).toBeUndefined();
    second.done();
  });
});
