import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../examples/mount-in-express/app.js';
import { DEFAULT_MOCK_REPLY } from '../../src/providers/mock/index.js';
import { cleanEnv, spawnProcess } from '../server/spawn-cli.js';

describe('examples/mount-in-express', () => {
  it('should serve the host route and the gateway side by side', async () => {
    const app = createApp('sk-example');
    expect((await request(app).get('/health')).body).toEqual({ ok: true });
    const response = await request(app)
      .post('/v1/chat/completions')
      .set('authorization', 'Bearer sk-example')
      .send({ model: 'mock', messages: [{ role: 'user', content: 'Hello' }] });
    expect(response.body.choices[0].message.content).toBe(DEFAULT_MOCK_REPLY);
  });

  it('should start with its server script, print its URLs and key, answer, and stop on SIGINT', async () => {
    const child = spawnProcess(
      process.execPath,
      ['--import', 'tsx', 'examples/mount-in-express/server.ts', '--port', '0'],
      cleanEnv({ SWITCHYARD_API_KEY: 'sk-from-env' }),
    );
    try {
      const [, baseURL] = await child.waitForOutput(/OpenAI base URL:\s+(\S+)/);
      expect(child.stdout()).toContain('sk-from-env');
      const response = await fetch(`${baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-from-env', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'mock', messages: [{ role: 'user', content: 'Hello' }] }),
      });
      expect(((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content).toBe(
        DEFAULT_MOCK_REPLY,
      );
    } finally {
      expect((await child.stop()).code).toBe(0);
    }
  });

  it('should report a port in use, naming it, and exit 1 rather than claim to listen', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const child = spawnProcess(
        process.execPath,
        ['--import', 'tsx', 'examples/mount-in-express/server.ts', '--port', String(port)],
        cleanEnv({ SWITCHYARD_API_KEY: 'sk-from-env' }),
      );
      expect((await child.exited).code).toBe(1);
      expect(child.stdout()).not.toContain('listening');
      expect(child.stderr()).toContain(
        `Cannot listen on 127.0.0.1:${port}: port ${port} is already in use (EADDRINUSE); stop what uses it, or pick another with --port.`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
