import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../../src/canonical/index.js';
import { silentLogger } from '../../../src/logger.js';
import { createProviderFromConfig } from '../../../src/providers/create-provider.js';
import type { ProviderContext } from '../../../src/providers/types.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';

let upstream: MockUpstream;
beforeEach(async () => {
  upstream = await startMockUpstream();
});
afterEach(() => upstream.close());

const request: CanonicalRequest = {
  model: 'm',
  stream: true,
  maxOutputTokens: 10,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
};
const context = (signal: AbortSignal): ProviderContext => ({ signal, requestId: 'req_1', gatewayModel: 'm', logger: silentLogger });

describe('the maxConnections provider option', () => {
  for (const type of ['openai', 'openai-compatible', 'openai-responses', 'anthropic', 'gemini']) {
    it(`should hold a second call until a connection is free (${type})`, async () => {
      upstream.reply({ hang: true });
      const baseURL = type === 'gemini' ? `${upstream.url}/v1beta` : type === 'anthropic' ? upstream.url : `${upstream.url}/v1`;
      const adapter = createProviderFromConfig('p', { type, apiKey: 'k', baseURL, maxConnections: 1 });
      const first = new AbortController();
      const second = new AbortController();
      const drain = async (signal: AbortSignal) => {
        for await (const _event of adapter.stream(request, context(signal))) {
          // the upstream never answers; aborting ends the stream
        }
      };
      const one = drain(first.signal).catch(() => undefined);
      await expect.poll(() => upstream.requests.length).toBe(1);
      const two = drain(second.signal).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(upstream.requests).toHaveLength(1);
      first.abort();
      await expect.poll(() => upstream.requests.length).toBe(2);
      second.abort();
      await Promise.all([one, two]);
    });
  }
});
