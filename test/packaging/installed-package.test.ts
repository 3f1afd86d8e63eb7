import { execFile } from 'node:child_process';
import { copyFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MOCK_REPLY } from '../../src/index.js';
import { spawnProcess } from '../server/spawn-cli.js';

// The package as a user gets it: built, packed with `npm pack`, then installed from the tarball
// into a project of its own. One pack and one install serve every test below. The build goes to a
// copy of the package (package.json, README, LICENSE and a fresh dist/) in the temporary directory,
// as `prepack` would build it, so that the repository's dist/ is left alone.

const run = promisify(execFile);
const projectRoot = join(import.meta.dirname, '../..');
const manifest = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as { name: string; version: string; bin: unknown };

/**
 * The environment without the variables a parent `npm test` sets for its scripts (its prefix and
 * package among them), so npm here works on the scratch project, offline where its cache allows.
 */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.toLowerCase().startsWith('npm_') || ['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig'].includes(name))
      env[name] = value;
  }
  for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'SWITCHYARD_API_KEY', 'NODE_OPTIONS']) delete env[name];
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

let scratch = '';
let app = '';
let packed: string[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'switchyard-pack-'));
  const copy = join(scratch, 'package');
  await mkdir(copy);
  for (const file of ['package.json', 'README.md', 'LICENSE']) await copyFile(join(projectRoot, file), join(copy, file));
  await cp(join(projectRoot, 'docs'), join(copy, 'docs'), { recursive: true });
  await run('npm', ['run', 'build', '--silent', '--', '--outDir', join(copy, 'dist')], { cwd: projectRoot, env: npmEnv() });
  await run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', scratch], { cwd: copy, env: npmEnv() });
  const tarball = join(scratch, `${manifest.name}-${manifest.version}.tgz`);
  packed = (await run('tar', ['-tzf', tarball])).stdout.split('\n').filter(Boolean);

  app = join(scratch, 'app');
  await mkdir(app);
  await writeFile(join(app, 'package.json'), '{ "name": "uses-switchyard", "private": true }\n');
  // No install scripts: better-sqlite3's native build is not needed without a database, and takes minutes.
  await run('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', tarball], { cwd: app, env: npmEnv() });
}, 240_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Runs `script` (written to the scratch project as `file`) with node and returns its stdout, parsed as JSON. */
async function runScript<T>(file: string, script: string, nodeFlags: string[] = []): Promise<T> {
  await writeFile(join(app, file), script);
  const { stdout } = await run(process.execPath, [...nodeFlags, file], { cwd: app, env: npmEnv() });
  return JSON.parse(stdout) as T;
}

describe('the packed package', () => {
  it('should hold the compiled code, its types and the licence, without source maps or sources', () => {
    expect(packed).toContain('package/package.json');
    expect(packed).toContain('package/LICENSE');
    expect(packed).toContain('package/dist/index.js');
    expect(packed).toContain('package/dist/index.d.ts');
    expect(packed).toContain('package/dist/testing/index.js');
    expect(packed).toContain('package/dist/server/cli.js');
    expect(packed.filter((path) => path.endsWith('.map'))).toEqual([]);
    // The guide the server renders at /docs: docs/ beside dist/.
    expect(packed.some((path) => path.startsWith('package/docs/'))).toBe(true);
    expect(packed.filter((path) => !/^package\/(dist\/|docs\/|package\.json$|LICENSE$|README\.md$)/.test(path))).toEqual([]);
  });

  it('should not install express, which the gateway never imports', async () => {
    await expect(readFile(join(app, 'node_modules', 'express', 'package.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('import from an ES module', () => {
  it('should serve the mock model over HTTP from a gateway on node:http', async () => {
    const result = await runScript<{ status: number; content: string }>(
      'serve.mjs',
      `import { createServer } from 'node:http';
import { gateway } from '${manifest.name}';
const server = createServer(gateway({ apiKeys: ['sk-packed'], models: [{ id: 'mock', provider: 'mock' }] }));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const response = await fetch(\`http://127.0.0.1:\${server.address().port}/v1/chat/completions\`, {
  method: 'POST',
  headers: { authorization: 'Bearer sk-packed', 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'mock', messages: [{ role: 'user', content: 'Hello' }] }),
});
const body = await response.json();
console.log(JSON.stringify({ status: response.status, content: body.choices?.[0]?.message?.content }));
server.closeAllConnections();
server.close();
`,
    );
    expect(result).toEqual({ status: 200, content: DEFAULT_MOCK_REPLY });
  });
});

describe('require from CommonJS', () => {
  const script = `let required;
try {
  required = typeof require('${manifest.name}').gateway;
} catch (error) {
  required = error.code;
}
const testing = require.resolve('${manifest.name}/testing');
import('${manifest.name}').then((module) => {
  console.log(JSON.stringify({ requireModule: process.features.require_module === true, required, imported: typeof module.gateway, testing }));
});
`;
  interface Loaded {
    requireModule: boolean;
    required: string;
    imported: string;
    testing: string;
  }
  const expectLoaded = (loaded: Loaded) => {
    // require() of an ES module works where Node supports it (20.19+, 22.12+, 24) and throws ERR_REQUIRE_ESM elsewhere.
    expect(loaded.required).toBe(loaded.requireModule ? 'function' : 'ERR_REQUIRE_ESM');
    // What the README tells CommonJS apps to do on any Node: import().
    expect(loaded.imported).toBe('function');
    expect(loaded.testing).toBe(join(app, 'node_modules', manifest.name, 'dist', 'testing', 'index.js'));
  };

  it('should load the package with require() where this Node can require an ES module, and with import() always', async () => {
    expectLoaded(await runScript<Loaded>('load.cjs', script));
  });

  // The other side, on the same Node: require(esm) turned off where it is on by default, or on where it is off.
  const flag = (process.features as { require_module?: boolean }).require_module
    ? '--no-experimental-require-module'
    : '--experimental-require-module';
  it.runIf(process.allowedNodeEnvironmentFlags.has(flag))(`should behave as documented with ${flag}`, async () => {
    const loaded = await runScript<Loaded>('load-flagged.cjs', script, [flag]);
    expect(loaded.requireModule).toBe(flag === '--experimental-require-module');
    expectLoaded(loaded);
  });
});

describe('the bin', () => {
  it('should print the usage through npx with the package name', async () => {
    const { stdout } = await run('npx', ['--no', '--', manifest.name, '--help'], { cwd: app, env: npmEnv() });
    expect(stdout).toContain('switchyard [serve] [--config FILE]');
  });

  it('should start the server through npx with the package name, serve a request, and stop on SIGTERM', async () => {
    // No database (better-sqlite3 was installed without its native build); the port is picked free.
    await writeFile(
      join(app, 'switchyard.json'),
      JSON.stringify({ database: false, server: { port: 0 }, apiKeys: ['sk-packaged-0123456789'] }),
    );
    const server = spawnProcess('npx', ['--no', '--', manifest.name, '--config', 'switchyard.json'], npmEnv(), app);
    try {
      const [, root] = await server.waitForOutput(/(http:\/\/127\.0\.0\.1:\d+)/, 30_000);
      const answer = await fetch(`${root}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-packaged-0123456789', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] }),
      });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content).toBe(
        DEFAULT_MOCK_REPLY,
      );
      // The guide at /docs is the installed package's docs/, found from dist/.
      const docsFiles = packed.filter((path) => path.startsWith('package/docs/')).map((path) => path.slice('package/docs/'.length));
      const home = await fetch(`${root}/docs`);
      expect(home.status).toBe(200);
      const page = docsFiles.find((file) => file.endsWith('.md') && file !== 'index.md');
      if (page === undefined) expect(await home.text()).toContain(join(app, 'node_modules', manifest.name, 'docs'));
      else expect((await fetch(`${root}/docs/${page.replace(/\.md$/, '')}`)).status).toBe(200);
      const image = docsFiles.find((file) => file.endsWith('.png'));
      if (image !== undefined) expect((await fetch(`${root}/docs/${image}`)).headers.get('content-type')).toBe('image/png');
      // SIGTERM to the npx process alone, as a process manager sends it: the server must not outlive it.
      process.kill(server.child.pid!, 'SIGTERM');
      await server.exited;
      const deadline = Date.now() + 5_000;
      let listening = true;
      while (listening && Date.now() < deadline) {
        listening = await fetch(`${root}/health`).then(
          () => true,
          () => false,
        );
        if (listening) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(listening).toBe(false);
    } finally {
      server.signal('SIGKILL');
    }
  }, 60_000);

  it('should be linked as `switchyard`, a node script built by npm run build', async () => {
    expect(manifest.bin).toEqual({ switchyard: './dist/server/cli.js' });
    const installed = join(app, 'node_modules', manifest.name, 'dist', 'server', 'cli.js');
    expect((await readFile(installed, 'utf8')).split('\n')[0]).toBe('#!/usr/bin/env node');
    const { stdout } = await run(join(app, 'node_modules', '.bin', 'switchyard'), ['--version'], { cwd: app, env: npmEnv() });
    expect(stdout.trim()).toBe(manifest.version);
  });
});

describe('the token estimate', () => {
  // count_tokens on a provider that cannot count (openai) is the gateway's own estimate.
  const script = `import { createServer } from 'node:http';
import { createOpenAIProvider, gateway } from '${manifest.name}';
const server = createServer(gateway({
  apiKeys: ['sk-packed'],
  providers: { openai: createOpenAIProvider({ apiKey: 'sk-never-called' }) },
  models: [{ id: 'gpt', provider: 'openai' }],
}));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const response = await fetch(\`http://127.0.0.1:\${server.address().port}/v1/messages/count_tokens\`, {
  method: 'POST',
  headers: { 'x-api-key': 'sk-packed', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'gpt', messages: [{ role: 'user', content: 'word '.repeat(400) }] }),
});
console.log(JSON.stringify({ status: response.status, ...(await response.json()) }));
server.closeAllConnections();
server.close();
`;

  it('should count with gpt-tokenizer where it is installed, and 4 characters per token where it is not', async () => {
    const counted = await runScript<{ status: number; input_tokens: number }>('count.mjs', script);
    expect(counted.status).toBe(200);
    expect(counted.input_tokens).toBeGreaterThan(400);
    expect(counted.input_tokens).toBeLessThan(440);

    // gpt-tokenizer is an optional dependency: what `npm install --omit=optional` leaves out.
    await rm(join(app, 'node_modules', 'gpt-tokenizer'), { recursive: true });
    const estimated = await runScript<{ status: number; input_tokens: number }>('count.mjs', script);
    expect(estimated.status).toBe(200);
    expect(estimated.input_tokens).toBeGreaterThanOrEqual(500);
    expect(estimated.input_tokens).toBeLessThan(510);
  });
});
