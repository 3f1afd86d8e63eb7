import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import OpenAI from 'openai';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateway } from '../../src/gateway/gateway.js';
import { silentLogger } from '../../src/logger.js';
import { DEFAULT_MOCK_REPLY } from '../../src/providers/mock/index.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

function hostApp(mountPath: string) {
  const app = express();
  app.get('/before', (_req, res) => res.json({ route: 'before' }));
  app.post('/messages', (_req, res) => res.json({ route: 'host messages' }));
  app.use(mountPath, gateway({ apiKeys: [TEST_KEY], logger: silentLogger }));
  app.get('/after', (_req, res) => res.json({ route: 'after' }));
  app.get('/v1/health', (_req, res) => res.json({ route: 'host health' }));
  app.post('/chat/completions', (_req, res) => res.json({ route: 'host chat' }));
  return app;
}

describe('gateway() inside a host app', () => {
  it('should keep the host routes before and after it working', async () => {
    const app = hostApp('/');
    expect((await request(app).get('/before')).body).toEqual({ route: 'before' });
    expect((await request(app).get('/after')).body).toEqual({ route: 'after' });
    expect((await request(app).get('/v1/health')).body).toEqual({ route: 'host health' });
    // A host route that happens to share an endpoint's name is reached when the call is not an API call.
    expect((await request(app).post('/chat/completions').send({})).body).toEqual({ route: 'host chat' });
    expect((await request(app).post('/messages').send({})).body).toEqual({ route: 'host messages' });
  });

  it('should fall through to the host 404 for paths it does not own', async () => {
    const response = await request(hostApp('/')).get('/nowhere');
    expect(response.status).toBe(404);
    expect(response.headers['x-request-id']).toBeUndefined();
  });

  it('should serve its endpoints next to the host routes', async () => {
    const response = await request(hostApp('/'))
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${TEST_KEY}`)
      .send({ model: 'mock', messages: [{ role: 'user', content: 'hi' }] });
    expect(response.status).toBe(200);
    expect(response.body.choices[0].message.content).toBe(DEFAULT_MOCK_REPLY);
  });

  it('should serve under a mount path and leave the unmounted path alone', async () => {
    const app = hostApp('/llm');
    const mounted = await request(app)
      .post('/llm/v1/messages')
      .set('x-api-key', TEST_KEY)
      .set('anthropic-version', '2023-06-01')
      .send({ model: 'mock', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    expect(mounted.status).toBe(200);
    expect(mounted.body.content[0].text).toBe(DEFAULT_MOCK_REPLY);
    expect((await request(app).get('/after')).body).toEqual({ route: 'after' });
  });

  it('should name the mounted base URL when the path misses /v1', async () => {
    const response = await request(hostApp('/llm'))
      .post('/llm/chat/completions')
      .set('authorization', `Bearer ${TEST_KEY}`)
      .send({ model: 'mock', messages: [] });
    expect(response.status).toBe(404);
    expect(response.body.error.message).toMatch(/http:\/\/127\.0\.0\.1:\d+\/llm\/v1/);
  });
});

describe('gateway() after host middleware that sets headers', () => {
  const app = express();
  app.use((_req, res, next) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('X-Host', 'kept');
    next();
  });
  app.use(gateway({ apiKeys: [TEST_KEY], logger: silentLogger }));
  const call = (body: object) => request(app).post('/v1/chat/completions').set('Authorization', `Bearer ${TEST_KEY}`).send(body);

  it('should keep the host headers and add the request id on answers, streams and errors alike', async () => {
    const answers = [
      await call({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] }),
      await call({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }], stream: true }),
      await call({ model: 'no-such-model', messages: [{ role: 'user', content: 'Hi' }] }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 404]);
    expect(answers[1]?.headers['content-type']).toContain('text/event-stream');
    for (const answer of answers) {
      expect(answer.headers['access-control-allow-origin']).toBe('*');
      expect(answer.headers['x-host']).toBe('kept');
      expect(answer.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
      expect(answer.headers['request-id']).toBe(answer.headers['x-request-id']);
    }
  });
});

describe('gateway() mounted at a path, called by the openai SDK', () => {
  let running: RunningGateway;
  beforeAll(async () => {
    running = await startGateway({}, '/llm');
  });
  afterAll(() => running.close());

  it('should answer at <mount>/v1', async () => {
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'hi' }] });
    expect(running.openAIBaseURL).toMatch(/\/llm\/v1$/);
    expect(completion.choices[0]?.message.content).toBe(DEFAULT_MOCK_REPLY);
  });
});

describe('gateway() behind compression middleware', () => {
  let running: RunningGateway;
  beforeAll(async () => {
    const { default: compression } = await import('compression');
    running = await startGateway({}, '/', (app) => app.use(compression({ threshold: 0 })));
  });
  afterAll(() => running.close());

  it('should compress JSON answers but leave streams uncompressed', async () => {
    const call = (stream: boolean) =>
      fetch(`${running.openAIBaseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json', 'accept-encoding': 'gzip' },
        body: JSON.stringify({ model: 'mock', stream, messages: [{ role: 'user', content: 'hi' }] }),
      });
    const json = await call(false);
    expect(json.headers.get('content-encoding')).toBe('gzip');
    const stream = await call(true);
    expect(stream.headers.get('content-encoding')).toBeNull();
    expect(await stream.text()).toContain('data: [DONE]');
  });
});

describe('gateway() after a host body parser', () => {
  it('should use the body express.json() or express.text() already read', async () => {
    for (const parser of [express.json(), express.text({ type: () => true })]) {
      const app = express();
      app.use(parser);
      app.use(gateway({ apiKeys: [TEST_KEY], logger: silentLogger }));
      const response = await request(app)
        .post('/v1/chat/completions')
        .set('authorization', `Bearer ${TEST_KEY}`)
        .set('content-type', 'application/json')
        .send(JSON.stringify({ model: 'mock', messages: [{ role: 'user', content: 'hi' }] }));
      expect(response.status).toBe(200);
      expect(response.body.choices[0].message.content).toBe(DEFAULT_MOCK_REPLY);
    }
  });
});

describe('gateway() as a plain node:http handler', () => {
  let server: Server;
  let root: string;
  beforeAll(async () => {
    server = createServer(gateway({ apiKeys: [TEST_KEY], logger: silentLogger }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('should serve the official clients with no framework around it', async () => {
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: `${root}/v1`, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]?.message.content).toBe(DEFAULT_MOCK_REPLY);
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toContain('mock');
  });

  it('should answer a path it does not own with a protocol-native 404, since there is no host to fall through to', async () => {
    const openai = await fetch(`${root}/nowhere`);
    expect(openai.status).toBe(404);
    expect(openai.headers.get('x-request-id')).toMatch(/^req_/);
    expect(((await openai.json()) as { error: { code: string } }).error.code).toBe('not_found');
    const anthropic = await fetch(`${root}/nowhere`, { headers: { 'anthropic-version': '2023-06-01' } });
    expect(((await anthropic.json()) as { type: string; error: { type: string } }).error.type).toBe('not_found_error');
  });

  it('should match an endpoint with a trailing slash or a query string, as Express did', async () => {
    for (const path of ['/v1/chat/completions/', '/v1/chat/completions?trace=1']) {
      const response = await fetch(`${root}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'mock', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBe(200);
    }
  });

  it('should find a model id with a slash and percent-encoding on /v1/models/:id', async () => {
    const slashed = createServer(
      gateway({ apiKeys: [TEST_KEY], logger: silentLogger, models: [{ id: 'team/mock v2', provider: 'mock' }] }),
    );
    await new Promise<void>((resolve) => slashed.listen(0, '127.0.0.1', resolve));
    try {
      const port = (slashed.address() as AddressInfo).port;
      const response = await fetch(`http://127.0.0.1:${port}/v1/models/team/mock%20v2`, {
        headers: { authorization: `Bearer ${TEST_KEY}` },
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { id: string }).id).toBe('team/mock v2');
    } finally {
      await new Promise<void>((resolve) => slashed.close(() => resolve()));
    }
  });
});
