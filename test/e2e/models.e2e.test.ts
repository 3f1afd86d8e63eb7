import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

let running: RunningGateway;
beforeAll(async () => {
  running = await startGateway({
    models: [
      { id: 'mock', provider: 'mock' },
      { id: 'vendor/fast', provider: 'mock', aliases: ['fast'] },
      { id: 'smart', provider: 'mock', ownedBy: 'acme' },
    ],
  });
});
afterAll(() => running.close());

describe('GET /v1/models', () => {
  it('should list the configured models in the OpenAI shape', async () => {
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const ids = [];
    for await (const model of client.models.list()) ids.push([model.id, model.object, model.owned_by]);
    expect(ids).toEqual([
      ['mock', 'model', 'mock'],
      ['vendor/fast', 'model', 'mock'],
      ['smart', 'model', 'acme'],
    ]);
  });

  it('should retrieve one model, also one whose id has a slash', async () => {
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    expect((await client.models.retrieve('smart')).id).toBe('smart');
    expect((await client.models.retrieve('vendor/fast')).id).toBe('vendor/fast');
  });

  it('should list in the Anthropic shape for Anthropic clients, with pagination', async () => {
    const client = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
    const page = await client.models.list({ limit: 2 });
    expect(page.data.map((model) => [model.id, model.type])).toEqual([
      ['mock', 'model'],
      ['vendor/fast', 'model'],
    ]);
    expect(page.has_more).toBe(true);
    const all = [];
    for await (const model of client.models.list({ limit: 2 })) all.push(model.id);
    expect(all).toEqual(['mock', 'vendor/fast', 'smart']);
  });

  it('should answer Claude Code discovery (x-api-key, limit=1000)', async () => {
    const response = await fetch(`${running.root}/v1/models?limit=1000`, {
      headers: { 'x-api-key': TEST_KEY, 'anthropic-version': '2023-06-01' },
    });
    const body = (await response.json()) as { data: Array<{ id: string; display_name: string; created_at: string }> };
    expect(response.status).toBe(200);
    expect(body.data).toHaveLength(3);
    expect(Number.isNaN(Date.parse(body.data[0]?.created_at ?? ''))).toBe(false);
  });

  it('should require a key', async () => {
    const response = await fetch(`${running.root}/v1/models`);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('missing_api_key');
  });

  it('should answer an unknown model id with 404', async () => {
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    await expect(client.models.retrieve('smrt')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });
});
