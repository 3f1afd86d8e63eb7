import { spawn } from 'node:child_process';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../examples/mount-in-express/app.js';
import { DEFAULT_MOCK_REPLY } from '../../src/providers/mock/index.js';

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

  it('should start with npm start, print its URLs and key, answer, and stop on SIGINT', async () => {
    const child = spawn('npm', ['start', '--silent', '--', '--port', '0'], {
      env: { ...process.env, SWITCHYARD_API_KEY: 'sk-from-env' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so SIGINT reaches npm and the server as Ctrl-C would
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => output.includes('OpenAI base URL') && (clearInterval(timer), resolve()), 50);
        child.on('exit', (code) => reject(new Error(`npm start exited with ${code}: ${output}`)));
      });
      expect(output).toContain('sk-from-env');
      const baseURL = /OpenAI base URL:\s+(\S+)/.exec(output)?.[1];
      const response = await fetch(`${baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-from-env', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'mock', messages: [{ role: 'user', content: 'Hello' }] }),
      });
      expect(((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content).toBe(
        DEFAULT_MOCK_REPLY,
      );
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      process.kill(-child.pid!, 'SIGINT');
      await exited;
    }
  });
});
