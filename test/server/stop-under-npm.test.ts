import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, projectRoot, readBanner, spawnProcess, type RunningProcess } from './spawn-cli.js';

// What a container's `docker stop` or a supervisor does: SIGTERM to exactly the process it started
// (npm), not to its process group as a terminal's Ctrl-C does.

const started: RunningProcess[] = [];
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-npm-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  // Whatever a failed test left behind: the whole group, npm and all it started (npm itself may be gone).
  for (const child of started.splice(0)) {
    try {
      process.kill(-child.child.pid!, 'SIGKILL');
    } catch {
      // the group is gone
    }
  }
});

/** npm without its update check (no network), in a clean environment. */
const npmEnv = () => cleanEnv({ npm_config_update_notifier: 'false' });

/** Whether anything still listens on `root`. */
function accepts(root: string): Promise<boolean> {
  const { hostname, port } = new URL(root);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.on('connect', () => (socket.destroy(), resolve(true)));
    socket.on('error', () => resolve(false));
  });
}

/** Whether any process of the group `pgid` (npm's, and everything it started) is still alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Sends SIGTERM to `child` alone and resolves once its whole process tree is gone and nothing listens on `root`; throws after `withinMs`. */
async function terminate(child: RunningProcess, root: string, withinMs: number): Promise<number> {
  const pid = child.child.pid!;
  const sent = Date.now();
  process.kill(pid, 'SIGTERM');
  while (groupAlive(pid) || (await accepts(root))) {
    if (Date.now() - sent > withinMs) {
      throw new Error(
        `still ${groupAlive(pid) ? 'running' : 'listening'} ${withinMs} ms after SIGTERM:\n${child.stdout()}\n${child.stderr()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - sent;
}

// Start-up under npm and tsx takes 6–9 s on a loaded 2-core machine (measured), so each test has a
// minute; the stop itself is bounded by the server's own shutdown timeout (10 s, nothing open).
const STOP_WITHIN_MS = 10_000;

describe('SIGTERM to the process the README starts', () => {
  it('should stop `npm start` gracefully, leaving no process behind', { timeout: 60_000 }, async () => {
    const child = spawnProcess('npm', ['start', '--silent', '--', '--port', '0'], npmEnv());
    started.push(child);
    const { root } = await readBanner(child);
    expect(await accepts(root)).toBe(true);
    expect(await terminate(child, root, STOP_WITHIN_MS)).toBeLessThan(STOP_WITHIN_MS);
    expect(child.stdout()).toContain('SIGTERM: no longer accepting connections');
    expect(child.stdout()).toContain('Stopped.\n');
    expect((await child.exited).code).toBe(0);
  });

  it('should stop `npx switchyard` gracefully, leaving no process behind', { timeout: 60_000 }, async () => {
    // An installed package's bin as npx finds it in node_modules/.bin: a node script, run by npm's `sh -c`.
    // This one runs the CLI from source (tsx registered in-process) instead of dist/.
    const project = join(dir, 'npx-project');
    await mkdir(join(project, 'node_modules', '.bin'), { recursive: true });
    await writeFile(join(project, 'package.json'), '{ "name": "uses-switchyard", "private": true }\n');
    const tsxApi = import.meta.resolve('tsx/esm/api');
    const cli = pathToFileURL(join(projectRoot, 'src/server/cli.ts')).href;
    await writeFile(
      join(project, 'node_modules', '.bin', 'switchyard'),
      `#!/usr/bin/env node\nconst { register } = await import(${JSON.stringify(tsxApi)});\nregister();\nawait import(${JSON.stringify(cli)});\n`,
      { mode: 0o755 },
    );
    const child = spawnProcess('npx', ['switchyard', '--port', '0'], npmEnv(), project);
    started.push(child);
    const { root } = await readBanner(child);
    expect(await accepts(root)).toBe(true);
    expect(await terminate(child, root, STOP_WITHIN_MS)).toBeLessThan(STOP_WITHIN_MS);
    expect(child.stdout()).toContain('no longer accepting connections');
  });
});
