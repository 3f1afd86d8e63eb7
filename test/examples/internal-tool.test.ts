import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInternalTool } from '../../examples/internal-tool/app.js';
import { cleanEnv, spawnProcess } from '../server/spawn-cli.js';

describe('examples/internal-tool', () => {
  let server: Server;
  let root = '';
  beforeAll(async () => {
    const app = createInternalTool({ serviceKey: 'sk-service', teamKeys: ['sk-team'], selfUrl: () => root });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const summarize = (body: unknown) =>
    fetch(`${root}/api/summarize`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('should answer its own route by calling the gateway mounted next to it', async () => {
    const response = await summarize({ text: 'Build 42 is green. Ship it on Friday.' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ summary: 'Summary: Build 42 is green.' });
  });

  it('should keep its other routes, and parse JSON only after the gateway', async () => {
    expect(await (await fetch(`${root}/health`)).json()).toEqual({ ok: true });
    expect((await summarize({})).status).toBe(400);
  });

  it('should serve other teams under /llm/v1 with their key, and refuse callers without one', async () => {
    const listed = await fetch(`${root}/llm/v1/models`, { headers: { authorization: 'Bearer sk-team' } });
    expect(((await listed.json()) as { data: Array<{ id: string }> }).data.map((model) => model.id)).toEqual(['summarizer']);
    expect((await fetch(`${root}/llm/v1/models`)).status).toBe(401);
  });

  it('should tell a client whose base URL lacks /v1 to use /llm/v1', async () => {
    const response = await fetch(`${root}/llm/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-team', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('missing_v1_path');
    expect(body.error.message).toContain(`${root}/llm/v1`);
  });

  it('should run as a script', async () => {
    const child = spawnProcess(process.execPath, ['--import', 'tsx', 'examples/internal-tool/main.ts'], cleanEnv());
    expect((await child.exited).code).toBe(0);
    expect(child.stdout()).toContain('summary: {"summary":"Summary: The deploy finished at noon."}');
    expect(child.stdout()).toContain('models:  summarizer');
  });
});
