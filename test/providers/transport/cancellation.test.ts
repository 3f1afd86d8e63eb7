import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/logger.js';
import { createProviderContext, RequestAbort, upstreamSignal } from '../../../src/providers/transport/cancellation.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../../helpers/start-gateway.js';
import { sseText, startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';

describe('RequestAbort', () => {
  it('should make the AbortSignal only when read, aborted whether read before or after the abort', () => {
    const early = new RequestAbort();
    const signal = early.signal;
    expect(signal.aborted).toBe(false);
    early.abort();
    expect(signal.aborted).toBe(true);

    const late = new RequestAbort();
    late.abort();
    expect(late.signal.aborted).toBe(true);
  });

  it('should call each listener once, however often it is aborted, and none that unsubscribed', () => {
    const abort = new RequestAbort();
    let heard = 0;
    let unsubscribedHeard = 0;
    abort.listen(() => (heard += 1));
    const unsubscribe = abort.listen(() => (unsubscribedHeard += 1));
    abort.listen(() => (heard += 10));
    unsubscribe();
    abort.abort();
    abort.abort();
    expect(heard).toBe(11);
    expect(unsubscribedHeard).toBe(0);
    expect(abort.aborted).toBe(true);
  });

  it("should give built-in adapters the emitter and others the context's own signal", () => {
    const abort = new RequestAbort();
    const context = createProviderContext(abort, { requestId: 'req_1', gatewayModel: 'm', logger: silentLogger });
    expect(upstreamSignal(context)).toBe(abort);
    expect(context.signal).toBe(abort.signal);
    const plain = { signal: new AbortController().signal, requestId: 'req_2', gatewayModel: 'm', logger: silentLogger };
    expect(upstreamSignal(plain)).toBe(plain.signal);
  });

  it('should let a wrapping adapter copy the context, naming its signal, and still hear the abort', () => {
    const abort = new RequestAbort();
    const context = createProviderContext(abort, { requestId: 'req_1', gatewayModel: 'm', logger: silentLogger });
    const copied = { ...context, signal: context.signal, gatewayModel: 'wrapped' };
    expect(Object.keys(copied).sort()).toEqual(['gatewayModel', 'logger', 'requestId', 'signal']);
    expect(upstreamSignal(copied)).toBe(copied.signal);
    abort.abort();
    expect(copied.signal.aborted).toBe(true);
  });
});

describe('a client that leaves mid-request, through a built-in provider', () => {
  let upstream: MockUpstream;
  let running: RunningGateway;
  beforeEach(async () => {
    upstream = await startMockUpstream();
    running = await startGateway({
      providers: { openai: { apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1` } },
      models: [{ id: 'gpt', provider: 'openai' }],
    });
  });
  afterEach(async () => {
    await running.close();
    await upstream.close();
  });

  for (const stream of [false, true]) {
    it(`should close the upstream connection (${stream ? 'streaming' : 'non-streaming'})`, async () => {
      const first = {
        id: 'c1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'gpt',
        choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }],
      };
      upstream.reply(stream ? { hang: true, sse: sseText([{ data: first }]) } : { hang: true });
      const controller = new AbortController();
      const answer = fetch(`${running.openAIBaseURL}/chat/completions`, {
        method: 'POST',
        signal: controller.signal,
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt', stream, messages: [{ role: 'user', content: 'hi' }] }),
      });
      if (stream) {
        const response = await answer;
        const reader = response.body!.getReader();
        expect(new TextDecoder().decode((await reader.read()).value)).toContain('Hel');
      } else {
        await expect.poll(() => upstream.requests.length).toBe(1);
        answer.catch(() => undefined);
      }
      controller.abort();
      await expect.poll(() => upstream.closedConnections).toBe(1);
    });
  }
});
