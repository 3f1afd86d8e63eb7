import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DATABASE_URL } from '../helpers/test-database.js';
import { cleanEnv, spawnProcess } from '../server/spawn-cli.js';

/** A port nothing listens on: taken from the OS, then closed again. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `npm run pretest`: the step `npm test` runs before the typecheck and the suites. */
async function runPretest(env: Record<string, string>) {
  const run = spawnProcess('npm', ['run', '--silent', 'pretest'], cleanEnv(env));
  const exit = await run.exited;
  return { exit, stdout: run.stdout(), stderr: run.stderr() };
}

describe('check-test-services (npm pretest)', () => {
  it('should stop naming PostgreSQL, Redis and chromium with the command for each when none is there', async () => {
    const [postgresPort, redisPort] = await Promise.all([closedPort(), closedPort()]);
    const { exit, stderr } = await runPretest({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${postgresPort}/test`,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      CHROMIUM_PATH: '/nonexistent/chromium',
    });
    expect(exit.code).toBe(1);
    expect(stderr).toContain('nothing was run');
    expect(stderr).toMatch(new RegExp(`PostgreSQL \\(postgres://postgres@127\\.0\\.0\\.1:${postgresPort}/test\\): connection refused`));
    expect(stderr).toMatch(/pg_ctlcluster .* main start|apt-get install -y postgresql/);
    expect(stderr).toMatch(new RegExp(`Redis \\(redis://127\\.0\\.0\\.1:${redisPort}\\): connection refused`));
    expect(stderr).toMatch(/redis-server --daemonize yes|apt-get install -y redis-server/);
    expect(stderr).toContain('chromium (/nonexistent/chromium): no such file');
    expect(stderr).toContain('apt-get install -y --no-install-recommends chromium');
  }, 30_000); // "within seconds": three refused connections, each check bounded by a 5 s connect timeout

  it('should name only the missing piece when the others are there', async () => {
    const { exit, stderr } = await runPretest({ CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(exit.code).toBe(1);
    expect(stderr).toContain('chromium (/nonexistent/chromium)');
    expect(stderr).not.toMatch(/PostgreSQL \(|Redis \(/);
  }, 30_000);

  it('should name the database to create when PostgreSQL answers without it', async () => {
    const url = new URL(DATABASE_URL);
    url.pathname = '/switchyard_no_such_database';
    const { exit, stderr } = await runPretest({ DATABASE_URL: url.toString() });
    expect(exit.code).toBe(1);
    expect(stderr).toContain('database "switchyard_no_such_database" does not exist');
    expect(stderr).toMatch(/createdb -h \S+ -p \d+ -U \S+ switchyard_no_such_database/);
  }, 30_000);

  it('should let the suites run when all three are there', async () => {
    const { exit, stdout, stderr } = await runPretest({});
    expect(stderr).toBe('');
    expect(exit.code).toBe(0);
    expect(stdout).toContain('PostgreSQL, Redis and chromium are there');
  }, 30_000);
});
