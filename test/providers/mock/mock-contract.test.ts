import { GatewayError, upstreamErrorCode } from '../../../src/canonical/index.js';
import { createMockProvider } from '../../../src/providers/mock/index.js';
import { runAdapterContract } from '../../../src/testing/index.js';

runAdapterContract({
  name: 'mock',
  createAdapter: (scenario) => {
    switch (scenario) {
      case 'text':
        return { adapter: createMockProvider(), model: 'mock' };
      case 'tool-call':
        return { adapter: createMockProvider({ toolArguments: () => ({ city: 'Paris' }) }), model: 'mock' };
      case 'rate-limit':
        return {
          adapter: createMockProvider({
            error: new GatewayError({ kind: 'rate_limit', code: 'RATE_LIMITED', message: 'Slow down.', retryAfter: 3 }),
          }),
          model: 'mock',
        };
      case 'bad-request':
        return {
          adapter: createMockProvider({
            error: new GatewayError({ kind: 'invalid_request', code: upstreamErrorCode('BAD'), message: 'Bad request.' }),
          }),
          model: 'mock',
        };
      case 'hang':
        return { adapter: createMockProvider({ chunkDelayMs: 60_000 }), model: 'mock' };
    }
  },
});
