import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';
import { sseFixture } from '../helpers/fixtures.js';

/**
 * A stream's final event arrives before the end of its HTTP body. The gateway stops reading at that
 * event; the rest of the body must still be read so the next stream reuses the connection.
 */
const upstreams: Array<{ type: string; sse: () => string; baseURL: (url: string) => string }> = [
  { type: 'openai', sse: () => sseFixture('chat-completions', 'upstream-text'), baseURL: (url) => `${url}/v1` },
  { type: 'openai-responses', sse: () => sseFixture('responses', 'upstream-text'), baseURL: (url) => `${url}/v1` },
  { type: 'anthropic', sse: () => sseFixture('messages', 'upstream-text'), baseURL: (url) => url },
];

describe.each(upstreams)('streams through the $type provider', ({ type, sse, baseURL }) => {
  let upstream: MockUpstream;
  let running: RunningGateway;
  beforeEach(async () => {
    upstream = await startMockUpstream();
    const options: GatewayOptions = {
      providers: { up: { type, apiKey: 'sk-upstream', baseURL: baseURL(upstream.url) } as never },
      models: [{ id: 'model', provider: 'up' }],
    };
    running = await startGateway(options);
  });
  afterEach(async () => {
    await running.close();
    await upstream.close();
  });

  it('should reuse one upstream connection for consecutive streams', async () => {
    // Small pieces with pauses: the body's end comes after its last event.
    upstream.reply({ sse: sse(), chunkBytes: 64, delayMs: 1 });
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    for (let call = 0; call < 3; call += 1) {
      const stream = await client.chat.completions.create({ model: 'model', stream: true, messages: [{ role: 'user', content: 'hi' }] });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text.length).toBeGreaterThan(0);
      // The client has its answer before the upstream body's end arrives; let that end come in.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(upstream.requests).toHaveLength(3);
    expect(upstream.openedConnections).toBe(1);
    expect(upstream.closedConnections).toBe(0);
  });
});
