import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { gateway } from '../../src/gateway/gateway.js';
import { metricsHandler } from '../../src/index.js';
import { silentLogger } from '../../src/logger.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

let running: RunningGateway | undefined;
afterEach(async () => {
  await running?.close();
  await running?.gateway.close();
  running = undefined;
});

describe('metricsHandler', () => {
  it("should serve a mounted gateway's registry on a route of the host app", async () => {
    running = await startGateway({ metrics: true }, '/llm');
    running.app.get('/metrics', metricsHandler(running.gateway.metrics!));
    const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    await openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hello' }] });
    const response = await fetch(`${running.root.replace(/\/llm$/, '')}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('switchyard_requests_total{protocol="chat",model="mock",status="200"} 1');
  });

  it('should give no registry without metrics, and reject a bad metrics or requestLog option', async () => {
    const plain = gateway({ logger: silentLogger });
    expect(plain.metrics).toBeUndefined();
    await plain.close();
    expect(() => gateway({ logger: silentLogger, requestLog: { prompts: 'all' as 'text' } })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
    expect(() => gateway({ logger: silentLogger, metrics: { keyLabels: -1 } })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
  });
});
