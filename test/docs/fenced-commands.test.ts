import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, projectRoot, readBanner, spawnCli, type RunningProcess } from '../server/spawn-cli.js';
import { fencedBlocks, isShell, type FencedBlock } from './fenced-blocks.js';

// Every shell command the README and the client guides show runs, as written, against a server
// started the way the README starts it (the mock model, no provider key), or says above its fence
// why it cannot run here. The guide's address `http://localhost:8787` is this server's.

const run = promisify(execFile);
const GUIDE_ORIGIN = 'http://localhost:8787';
/** Why a block may not run here. */
const NOT_RUN_REASONS = new Set([
  'needs: provider-key',
  'not-run: starts-the-server',
  'not-run: runs-the-suite',
  'not-run: interactive',
  'not-run: agent-cli',
]);

const files = [
  'README.md',
  'docs/base-urls.md',
  ...readdirSync(join(projectRoot, 'docs/clients'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/clients/${name}`),
];
const blocks = files.flatMap((file) => fencedBlocks(readFileSync(join(projectRoot, file), 'utf8')).map((block) => ({ file, ...block })));
const shell = blocks.filter(isShell);
const runnable = shell.filter((block) => block.mark === undefined);
const where = (block: FencedBlock & { file: string }) => `${block.file}:${block.line}`;

// curl fails on an HTTP error status, so a command that gets a 4xx or 5xx fails the test.
const PRELUDE = 'curl() { command curl --fail-with-body --silent --show-error --max-time 60 "$@"; }\n';

let server: RunningProcess;
let root: string;
const key = 'sk-fenced-commands-0123456789abcdef';

beforeAll(async () => {
  server = spawnCli(['--port', '0', '--no-console'], cleanEnv({ SWITCHYARD_API_KEY: key }));
  root = (await readBanner(server)).root;
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe('fenced shell commands in README.md and the client guides', () => {
  it('should find runnable commands in the README and the curl guide', () => {
    expect(runnable.filter((block) => block.file === 'README.md').length).toBeGreaterThan(0);
    expect(runnable.filter((block) => block.file === 'docs/clients/curl.md').length).toBeGreaterThan(5);
  });

  it('should mark every block that does not run with a known reason', () => {
    const unknown = shell
      .filter((block) => block.mark !== undefined && !NOT_RUN_REASONS.has(block.mark))
      .map((block) => `${where(block)} ${block.mark}`);
    expect(unknown).toEqual([]);
  });

  it('should hold only commands bash can parse, marked or not', async () => {
    for (const block of shell)
      await run('bash', ['-n', '-c', block.code]).catch((error: Error) => expect.fail(`${where(block)}: ${error.message}`));
  });

  it('should parse every JSON block of the client guides', () => {
    for (const block of blocks.filter((each) => each.lang === 'json' && each.file.startsWith('docs/clients/'))) {
      expect(() => JSON.parse(block.code), where(block)).not.toThrow();
    }
  });

  it('should run every unmarked command against the started gateway', async () => {
    for (const block of runnable) {
      const code = block.code.replaceAll(GUIDE_ORIGIN, root);
      const env = { ...cleanEnv({ SWITCHYARD_API_KEY: key }), PATH: process.env.PATH ?? '/usr/bin:/bin' };
      const result = await run('bash', ['-e', '-o', 'pipefail', '-c', PRELUDE + code], { env, cwd: projectRoot, timeout: 90_000 }).catch(
        (error: Error & { stdout?: string; stderr?: string }) =>
          expect.fail(`${where(block)} failed: ${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`),
      );
      expect(result.stdout.length, `${where(block)} printed nothing`).toBeGreaterThan(0);
    }
  }, 120_000);
});
