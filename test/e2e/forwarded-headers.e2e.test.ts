import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/providers/anthropic/index.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

const message = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-x',
  content: [{ type: 'text', text: 'ok' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 3, output_tokens: 1 },
};

let upstream: MockUpstream;
let running: RunningGateway;
beforeAll(async () => {
  upstream = await startMockUpstream();
  upstream.reply({ json: message });
  running = await startGateway({
    providers: { anthropic: createAnthropicProvider({ apiKey: 'upstream-key', baseURL: upstream.url, betas: ['configured-beta'] }) },
    models: [{ id: 'claude', provider: 'anthropic', upstreamModel: 'claude-x' }],
  });
});
afterAll(async () => {
  await running.close();
  await upstream.close();
});

describe('caller headers forwarded to the provider', () => {
  it("should pass a Messages caller's anthropic-beta to Anthropic, merged with configured betas", async () => {
    const response = await fetch(`${running.root}/v1/messages`, {
      method: 'POST',
      headers: {
        'x-api-key': TEST_KEY,
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'context-management-2025-06-27, configured-beta',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    const received = upstream.requests.at(-1)!;
    expect(received.headers['anthropic-beta']).toBe('configured-beta,context-management-2025-06-27');
    expect(received.headers['x-api-key']).toBe('upstream-key');
  });

  it('should send only the configured betas for an OpenAI caller', async () => {
    const response = await fetch(`${running.openAIBaseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'anthropic-beta': 'sneaky', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    expect(upstream.requests.at(-1)!.headers['anthropic-beta']).toBe('configured-beta');
  });
});
