import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';

/**
 * A redis-server of the test's own, on a free port, that the test may kill, restart and freeze:
 * the shared Redis is never stopped. No persistence: a killed server comes back empty, as a
 * restarted cache does.
 */
export interface RedisServerProcess {
  port: number;
  url: string;
  /** SIGKILL, and waits for the process to be gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port, and waits until it answers. */
  restart(): Promise<void>;
  /** SIGSTOP: connections stay open, nothing is answered. */
  freeze(): void;
  /** SIGCONT. */
  thaw(): void;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Resolves once the server answers a PING (it takes a few ms to listen); gives up after `withinMs`. */
async function answering(port: number, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.ping();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      probe.disconnect();
    }
  }
}

export async function startRedisServer(): Promise<RedisServerProcess> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await answering(port);
  };
  const stop = async (signal: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGCONT');
    running.kill(signal);
    await exited;
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill: () => stop('SIGKILL'),
    restart: start,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    close: () => stop('SIGKILL'),
  };
}
