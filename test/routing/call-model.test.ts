import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayError, type CanonicalRequest } from '../../src/canonical/index.js';
import { silentLogger } from '../../src/logger.js';
import { createProviderContext, RequestAbort } from '../../src/providers/transport/cancellation.js';
import type { ProviderAdapter } from '../../src/providers/types.js';
import { callModelOnce } from '../../src/routing/call-model.js';
import { createModelTable } from '../../src/routing/create-model-table.js';
import type { Route } from '../../src/routing/resolve-route.js';

afterEach(() => vi.useRealTimers());

describe('callModelOnce', () => {
  it('fails the call, and ends its deadline, when an adapter throws instead of rejecting', async () => {
    vi.useFakeTimers();
    const refusal = new GatewayError({ code: 'UPSTREAM_UNREACHABLE', message: 'thrown at once' });
    const adapter: ProviderAdapter = {
      id: 'throws',
      generate() {
        throw refusal;
      },
      async *stream() {
        throw new Error('not used');
      },
    };
    const { table } = createModelTable([{ id: 'm', provider: 'throws' }], { throws: adapter });
    const route: Route = {
      model: table.get('m')!,
      request: { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] } as unknown as CanonicalRequest,
      inbound: 'chat',
      adaptations: [],
    };
    const context = createProviderContext(new RequestAbort(), { requestId: 'req_1', gatewayModel: 'm', logger: silentLogger });
    const answer = callModelOnce.generate(route, context);
    expect(vi.getTimerCount()).toBe(1); // the call's deadline
    await expect(answer).rejects.toBe(refusal);
    expect(vi.getTimerCount()).toBe(0);
  });
});
