import { createServer, request as httpRequest, Agent, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeGracefully, INTERRUPT_GRACE_MS } from '../../src/server/close-gracefully.js';

let server: Server | undefined;
let agent: Agent | undefined;

afterEach(() => {
  agent?.destroy();
  server?.closeAllConnections();
  server?.close();
});

/** A server whose `/slow` answers after `ms`, writing one byte first. */
async function startSlowServer(ms: number): Promise<number> {
  server = createServer((req, res) => {
    if (req.url !== '/slow') {
      res.end('fast');
      return;
    }
    res.write('a');
    setTimeout(() => res.end('b'), ms);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return (server?.address() as AddressInfo).port;
}

function get(port: string | number, path: string): Promise<{ body: string; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ body, complete: true }));
      res.on('error', () => resolve({ body, complete: false }));
      res.on('aborted', () => resolve({ body, complete: false }));
    });
    req.on('error', reject);
    req.end();
  });
}

const refused = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });

describe('closeGracefully', () => {
  it('should stop accepting connections but let an open request finish', async () => {
    const port = await startSlowServer(300);
    agent = new Agent({ keepAlive: true });
    const slow = get(port, '/slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const closing = closeGracefully(server as Server, 5_000);
    expect(await refused(port)).toBe('ECONNREFUSED');
    expect(await slow).toEqual({ body: 'ab', complete: true });
    expect(await closing.done).toEqual({ forced: false });
    // The connection went idle after its answer; it is closed then, not after the keep-alive timeout.
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('should close idle keep-alive connections at once instead of waiting for their timeout', async () => {
    const port = await startSlowServer(0);
    agent = new Agent({ keepAlive: true });
    expect((await get(port, '/fast')).body).toBe('fast');
    const started = Date.now();
    expect(await closeGracefully(server as Server, 5_000).done).toEqual({ forced: false });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('should close requests still open when the time is up', async () => {
    const port = await startSlowServer(10_000);
    const slow = get(port, '/slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    expect(await closeGracefully(server as Server, 200).done).toEqual({ forced: true });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((await slow).complete).toBe(false);
  });

  it('should let interrupt end the requests still open at the deadline, so their answers end instead of being cut', async () => {
    const ends: Array<() => void> = [];
    server = createServer((_req, res) => {
      res.write('a');
      ends.push(() => res.end('!'));
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const slow = get((server.address() as AddressInfo).port, '/slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    let interrupted = 0;
    const closing = closeGracefully(server, 200, () => {
      interrupted += 1;
      for (const end of ends) end();
    });
    expect(await closing.done).toEqual({ forced: true });
    expect(interrupted).toBe(1);
    expect(await slow).toEqual({ body: 'a!', complete: true });
  });

  it('should close what interrupt left open a moment later', async () => {
    const port = await startSlowServer(10_000);
    const slow = get(port, '/slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    expect(await closeGracefully(server as Server, 100, () => undefined).done).toEqual({ forced: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(INTERRUPT_GRACE_MS);
    expect(Date.now() - started).toBeLessThan(INTERRUPT_GRACE_MS + 1_000);
    expect((await slow).complete).toBe(false);
  });

  it('should close open requests at once when forced', async () => {
    const port = await startSlowServer(10_000);
    const slow = get(port, '/slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = closeGracefully(server as Server, 60_000);
    closing.force();
    expect(await closing.done).toEqual({ forced: true });
    expect((await slow).complete).toBe(false);
  });
});
