// What `npm test` needs beside Node: the PostgreSQL, Redis and chromium the suites use. Checked
// before anything runs (`pretest`), so a machine without one stops in seconds with the command that
// sets it up, instead of a wall of timeouts half an hour later.
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';

/** The defaults the test helpers use (test/helpers/test-database.ts, browser.ts and the Redis suites). */
export const TEST_SERVICE_DEFAULTS = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
  REDIS_URL: 'redis://127.0.0.1:6379',
  CHROMIUM_PATH: '/usr/bin/chromium',
} as const;

/** One service that is not there: what, where, why, and the one command that sets it up. */
export interface MissingTestService {
  name: 'PostgreSQL' | 'Redis' | 'chromium';
  /** The URL or path checked (with any password hidden). */
  where: string;
  problem: string;
  command: string;
}

const CONNECT_TIMEOUT_MS = 5_000;

function onPath(program: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, program)));
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

function reason(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code === 'ECONNREFUSED') return 'connection refused (not running)';
  if (code === 'ENOTFOUND') return 'host not found';
  if (code === 'ETIMEDOUT' || /timeout/i.test(message ?? '')) return `no answer within ${CONNECT_TIMEOUT_MS / 1000} s`;
  return message || String(code ?? error);
}

async function checkPostgres(url: string): Promise<MissingTestService | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    const where = withoutPassword(url);
    const code = (error as { code?: string }).code;
    if (code === '3D000') {
      const { hostname, port, username, pathname } = new URL(url);
      const database = decodeURIComponent(pathname.slice(1));
      const command = `createdb -h ${hostname} -p ${port || 5432} -U ${decodeURIComponent(username) || 'postgres'} ${database}`;
      return { name: 'PostgreSQL', where, problem: `database "${database}" does not exist`, command };
    }
    if (code === '28P01' || /password|SASL/i.test((error as Error).message ?? '')) {
      return {
        name: 'PostgreSQL',
        where,
        problem: `refused the login (${(error as Error).message}); the tests sign in as postgres without a password`,
        command: `echo 'host all all 127.0.0.1/32 trust' | sudo tee -a /etc/postgresql/*/main/pg_hba.conf && sudo pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main reload`,
      };
    }
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      // PostgreSQL answered, with another refusal (a role that does not exist, …).
      return {
        name: 'PostgreSQL',
        where,
        problem: (error as Error).message,
        command: `DATABASE_URL=${TEST_SERVICE_DEFAULTS.DATABASE_URL} npm test (user postgres, trust auth, database test)`,
      };
    }
    // .ci/run's line starts an installed cluster; without one, apt installs and starts it.
    const command = onPath('pg_ctlcluster')
      ? `sudo pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start`
      : 'sudo apt-get install -y postgresql (then trust auth for 127.0.0.1 and `createdb -h 127.0.0.1 -U postgres test`)';
    return { name: 'PostgreSQL', where, problem: reason(error), command };
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function checkRedis(url: string): Promise<MissingTestService | undefined> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  // ioredis rejects with "Connection is closed."; the socket's own error says why.
  let socketError: unknown;
  redis.on('error', (error) => (socketError ??= error));
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch (error) {
    const port = new URL(url).port || '6379';
    // .ci/run's line, without its log file (which needs root).
    const command = onPath('redis-server')
      ? `redis-server --daemonize yes --bind 127.0.0.1 -::1 --port ${port} --save "" --appendonly no`
      : 'sudo apt-get install -y redis-server';
    return { name: 'Redis', where: withoutPassword(url), problem: reason(socketError ?? error), command };
  } finally {
    redis.disconnect();
  }
}

function checkChromium(path: string): MissingTestService | undefined {
  try {
    accessSync(path, constants.X_OK);
    return undefined;
  } catch (error) {
    const code = (error as { code?: string }).code;
    return {
      name: 'chromium',
      where: path,
      problem: code === 'ENOENT' ? 'no such file' : 'not executable',
      command: 'sudo apt-get install -y --no-install-recommends chromium',
    };
  }
}

/** Checks the three services (in parallel, each bounded by a 5 s connect timeout); an empty list when all are there. */
export async function findMissingTestServices(env: NodeJS.ProcessEnv = process.env): Promise<MissingTestService[]> {
  const results = await Promise.all([
    checkPostgres(env.DATABASE_URL ?? TEST_SERVICE_DEFAULTS.DATABASE_URL),
    checkRedis(env.REDIS_URL ?? TEST_SERVICE_DEFAULTS.REDIS_URL),
    checkChromium(env.CHROMIUM_PATH ?? TEST_SERVICE_DEFAULTS.CHROMIUM_PATH),
  ]);
  return results.filter((result): result is MissingTestService => result !== undefined);
}
