import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../examples/custom-provider/app.js';
import { shoutProvider } from '../../examples/custom-provider/shout-provider.js';
import type { CanonicalRequest, CanonicalStreamEvent } from '../../src/canonical/index.js';
import { silentLogger } from '../../src/logger.js';
import { checkStreamEvents } from '../../src/testing/index.js';
import { cleanEnv, projectRoot, spawnProcess } from '../server/spawn-cli.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

const canonical = (text: string): CanonicalRequest => ({
  model: 'shout',
  stream: true,
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
});
const context = { signal: new AbortController().signal, requestId: 'req_1', gatewayModel: 'shout', logger: silentLogger };

describe('examples/custom-provider', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway({ providers: { shout: shoutProvider }, models: [{ id: 'shout', provider: 'shout' }] });
  });
  afterAll(() => gateway.close());

  it('should keep the adapter under 60 lines', async () => {
    const text = await readFile(join(projectRoot, 'examples/custom-provider/shout-provider.ts'), 'utf8');
    expect(text.trimEnd().split('\n').length).toBeLessThan(60);
  });

  it('should stream well-formed canonical events, word by word', async () => {
    const events: CanonicalStreamEvent[] = [];
    for await (const event of shoutProvider.stream(canonical('one two three'), context)) events.push(event);
    expect(checkStreamEvents(events)).toEqual([]);
    expect(events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : []))).toEqual(['ONE ', 'TWO ', 'THREE']);
  });

  it('should answer through the mounted app in the Chat Completions protocol', async () => {
    const response = await request(createApp('sk-shout'))
      .post('/v1/chat/completions')
      .set('authorization', 'Bearer sk-shout')
      .send({ model: 'shout', messages: [{ role: 'user', content: 'quiet please' }] });
    expect(response.status).toBe(200);
    expect(response.body.choices[0].message.content).toBe('QUIET PLEASE');
    expect(response.body.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 3 });
  });

  it('should answer an Anthropic client too, with no extra code', async () => {
    const anthropic = new Anthropic({ baseURL: gateway.root, apiKey: TEST_KEY });
    const message = await anthropic.messages.create({ model: 'shout', max_tokens: 64, messages: [{ role: 'user', content: 'hi there' }] });
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'HI THERE' })]);
  });

  it('should turn its GatewayError into a 400 before any stream starts', async () => {
    const response = await fetch(`${gateway.openAIBaseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'shout', stream: true, messages: [{ role: 'user', content: '   ' }] }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('nothing_to_shout');
  });

  it('should run as a script, calling itself with the openai SDK', async () => {
    const child = spawnProcess(process.execPath, ['--import', 'tsx', 'examples/custom-provider/main.ts'], cleanEnv());
    expect((await child.exited).code).toBe(0);
    expect(child.stdout()).toContain('reply:    HELLO FROM A CUSTOM PROVIDER');
    expect(child.stdout()).toContain('streamed: ["STREAMED ","WORD ","BY ","WORD"]');
  });
});
