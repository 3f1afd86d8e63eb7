import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MOCK_REPLY } from '../../src/providers/mock/index.js';
import { detectableProviders } from '../../src/server/zero-config.js';
import { runCliInProcess, serveInProcess, type ServingInProcess } from './run-cli-in-process.js';
import { cleanEnv, parseBanner, readBanner, spawnCli, spawnProcess, type RunningProcess } from './spawn-cli.js';

const run = promisify(execFile);
const started: RunningProcess[] = [];
const serving: ServingInProcess[] = [];
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => child.stop(2_000)));
  for (const server of serving.splice(0)) await server.stop();
});

function track(child: RunningProcess): RunningProcess {
  started.push(child);
  return child;
}

/** `switchyard …args` served in this process (run-cli-in-process.ts), stopped after the test; with its banner. */
async function serve(args: readonly string[], env: NodeJS.ProcessEnv) {
  const server = await serveInProcess(args, env);
  serving.push(server);
  return { server, banner: parseBanner(server.stdout(), env) };
}

async function writeConfig(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

/** The lines of a banner section, e.g. the curl command under "curl:". */
function section(output: string, title: string): string {
  const lines = output.split('\n');
  const start = lines.indexOf(title);
  const end = lines.indexOf('', start);
  return lines
    .slice(start + 1, end)
    .map((line) => line.trim())
    .join('\n');
}

function chat(openAIBaseURL: string, key: string, model: string, stream = false) {
  return fetch(`${openAIBaseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'Hello' }] }),
  });
}

/** Resolves when a TCP connect to `root` is refused. */
async function waitUntilRefused(root: string): Promise<void> {
  const { hostname, port } = new URL(root);
  for (let attempt = 0; attempt < 100; attempt++) {
    const result = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), hostname);
      socket.on('connect', () => (socket.destroy(), resolve('connected')));
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    if (result === 'ECONNREFUSED') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${root} still accepts connections`);
}

async function readAll(response: Response): Promise<string> {
  let raw = '';
  try {
    for await (const chunk of response.body ?? []) raw += Buffer.from(chunk).toString();
  } catch {
    // the server cut the stream
  }
  return raw;
}

const streamedText = (raw: string) =>
  raw
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => (JSON.parse(line.slice(6)) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '')
    .join('');

describe('switchyard (npm start, no configuration)', () => {
  it('should start with npm start, print snippets that work as pasted, and stop on Ctrl-C', async () => {
    const child = track(spawnProcess('npm', ['start', '--silent', '--', '--port', '0'], cleanEnv({ SWITCHYARD_API_KEY: 'sk-from-env' })));
    const banner = await readBanner(child);
    const output = child.stdout();
    expect(banner.key).toBe('sk-from-env');
    expect(banner.openAIBaseURL).toBe(`${banner.root}/v1`);
    // The operator's key is never printed in full: masked, and the snippets read $SWITCHYARD_API_KEY.
    expect(output + child.stderr()).not.toContain('sk-from-env');
    expect(output).toMatch(/API key:\s+sk…nv\s+\(from SWITCHYARD_API_KEY/);
    const shellWithKey = { env: { ...process.env, SWITCHYARD_API_KEY: 'sk-from-env' } };

    // curl, exactly as printed, in a shell where the variable is set
    const curl = await run('sh', ['-c', section(output, 'curl:')], shellWithKey);
    expect((JSON.parse(curl.stdout) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content).toBe(
      DEFAULT_MOCK_REPLY,
    );

    // the openai SDK with the printed base URL and key: a stream in several chunks, and a forced tool call
    const openai = new OpenAI({ baseURL: banner.openAIBaseURL, apiKey: banner.key });
    const chunks: string[] = [];
    const stream = await openai.chat.completions.create({ model: 'mock', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) chunks.push(chunk.choices[0].delta.content);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(DEFAULT_MOCK_REPLY);
    const toolCall = await openai.chat.completions.create({
      model: 'mock',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [
        { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
      ],
      tool_choice: 'required',
    });
    expect(toolCall.choices[0]?.message.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'get_weather' } });

    // the anthropic SDK with the printed API root
    const anthropic = new Anthropic({ baseURL: banner.root, apiKey: banner.key });
    const message = await anthropic.messages.create({ model: 'mock', max_tokens: 256, messages: [{ role: 'user', content: 'Hi' }] });
    expect(message.content[0]).toMatchObject({ type: 'text', text: DEFAULT_MOCK_REPLY });

    // Claude Code's variables, used as Claude Code uses them: <base>/v1/messages with Bearer <token>
    const claudeCode =
      /ANTHROPIC_BASE_URL=(\S+) ANTHROPIC_AUTH_TOKEN=(\S+)[\s\\]+ANTHROPIC_MODEL=(\S+) ANTHROPIC_DEFAULT_HAIKU_MODEL=(\S+) claude/.exec(
        output,
      );
    expect(claudeCode?.[1]).toBe(banner.root);
    const token = (await run('sh', ['-c', `printf %s ${claudeCode?.[2]}`], shellWithKey)).stdout;
    const messages = await fetch(`${claudeCode?.[1]}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: claudeCode?.[3], max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(messages.status).toBe(200);
    expect(claudeCode?.[4]).toBe('mock');

    child.signal('SIGINT');
    await child.exited;
    expect(child.stdout()).toContain('Stopped.');
  });

  it('should generate a development key when SWITCHYARD_API_KEY is unset, and accept only it', async () => {
    const { server, banner } = await serve(['--port', '0'], cleanEnv());
    expect(banner.key).toMatch(/^sk-dev-[0-9a-f]+$/);
    expect(server.stdout()).toContain('generated for this run');
    // A key the server made up is of use only once shown: the snippets carry it.
    expect(section(server.stdout(), 'curl:')).toContain(`Bearer ${banner.key}`);
    expect((await chat(banner.openAIBaseURL, 'sk-wrong', 'mock')).status).toBe(401);
    expect((await chat(banner.openAIBaseURL, banner.key, 'mock')).status).toBe(200);
  });

  it('should add the providers whose keys are set, with their documented models', async () => {
    const env = cleanEnv({
      OPENAI_API_KEY: 'sk-dummy',
      ANTHROPIC_API_KEY: 'sk-ant-dummy',
      GEMINI_API_KEY: 'AIza-dummy',
      SWITCHYARD_API_KEY: 'sk-gw',
    });
    const { server, banner } = await serve(['--port', '0'], env);
    const models = await fetch(`${banner.openAIBaseURL}/models`, { headers: { authorization: 'Bearer sk-gw' } });
    const ids = ((await models.json()) as { data: Array<{ id: string; owned_by: string }> }).data.map(
      (model) => `${model.owned_by}/${model.id}`,
    );
    expect(ids).toEqual([
      'mock/mock',
      ...detectableProviders.flatMap((detectable) => detectable.models.map((id) => `${detectable.provider}/${id}`)),
    ]);
    expect(server.stdout()).toContain('ANTHROPIC_MODEL=claude-sonnet-4-6 ANTHROPIC_DEFAULT_HAIKU_MODEL=claude-haiku-4-5');
  });

  it('should add only Anthropic when only ANTHROPIC_API_KEY is set', async () => {
    const { banner } = await serve(['--port', '0'], cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-dummy', SWITCHYARD_API_KEY: 'sk-gw' }));
    const models = await fetch(`${banner.openAIBaseURL}/models`, { headers: { authorization: 'Bearer sk-gw' } });
    const ids = ((await models.json()) as { data: Array<{ id: string }> }).data.map((model) => model.id);
    expect(ids).toEqual(['mock', 'claude-sonnet-4-6', 'claude-opus-4-6', 'claude-haiku-4-5']);
    // OpenAI's models are known: asking for one names the variable that would serve it.
    const client = new OpenAI({ apiKey: 'sk-gw', baseURL: banner.openAIBaseURL, maxRetries: 0 });
    const error = await client.chat.completions
      .create({ model: 'gpt-5.4-mini', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as Error).message).toBe(
      "404 The model 'gpt-5.4-mini' is known to this gateway but not available. It is served when OPENAI_API_KEY is set; this server started without it. GET /v1/models lists the models you can use.",
    );
  });

  // A real process: how the CLI exits on a refused flag or a bad configuration (process.exit in run-cli.ts's catch).
  it('should print its usage and exit 2 on an unknown flag', async () => {
    const child = spawnCli(['--prot', '9000']);
    expect((await child.exited).code).toBe(2);
    expect(child.stderr()).toContain("Unknown option '--prot'");
    expect(child.stderr()).toContain('Usage:');
  });
});

describe('switchyard serve --config', () => {
  const slowConfig = (shutdownTimeoutMs: number, chunks: number) => `
server: { port: 1, shutdownTimeoutMs: ${shutdownTimeoutMs} }
apiKeys: ["\${TEST_GATEWAY_KEY}"]
providers:
  slow: { type: mock, chunks: ${chunks}, chunkDelayMs: 150 }
models:
  - { id: slow, provider: slow }
`;

  it('should serve the file with its ${ENV} secrets, the --port flag winning over the file', async () => {
    const path = await writeConfig('serve.yaml', slowConfig(5_000, 2));
    const { server, banner } = await serve(['serve', '--config', path, '--port', '0'], cleanEnv({ TEST_GATEWAY_KEY: 'sk-file-key' }));
    expect(server.stdout()).toContain(`one of apiKeys in ${path}`);
    expect(server.stdout()).not.toContain('sk-file-key');
    const response = await chat(banner.openAIBaseURL, 'sk-file-key', 'slow');
    expect(((await response.json()) as { model: string }).model).toBe('slow');
  });

  it('should let an open stream finish on SIGTERM, refuse new connections, and exit 0', async () => {
    const path = await writeConfig('drain.yaml', slowConfig(5_000, 6));
    const child = track(spawnCli(['serve', '-c', path, '-p', '0'], cleanEnv({ TEST_GATEWAY_KEY: 'sk-k' })));
    const banner = await readBanner(child);
    const response = await chat(banner.openAIBaseURL, 'sk-k', 'slow', true);
    expect(response.status).toBe(200);
    const body = readAll(response);
    child.signal('SIGTERM');
    await waitUntilRefused(banner.root);
    const raw = await body;
    expect(streamedText(raw)).toBe(DEFAULT_MOCK_REPLY);
    expect(raw).toContain('data: [DONE]');
    expect((await child.exited).code).toBe(0);
    expect(child.stdout()).toContain('SIGTERM: no longer accepting connections; waiting up to 5s for 1 open request.');
    expect(child.stdout()).toContain('Stopped.\n');
  });

  it('should close streams still open when shutdownTimeoutMs is up, and exit 0', async () => {
    const path = await writeConfig('cut.yaml', slowConfig(300, 40));
    const child = track(spawnCli(['serve', '--config', path, '--port', '0'], cleanEnv({ TEST_GATEWAY_KEY: 'sk-k' })));
    const banner = await readBanner(child);
    const response = await chat(banner.openAIBaseURL, 'sk-k', 'slow', true);
    const body = readAll(response);
    const signalled = Date.now();
    child.signal('SIGINT');
    expect((await child.exited).code).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(3_000);
    const raw = await body;
    expect(raw).not.toContain('[DONE]');
    // Ended in-band, as OpenAI ends a stream that fails, not cut.
    expect(raw.trimEnd().split('\n').at(-1)).toMatch(/^data: \{"error":\{"message":"The gateway is shutting down; retry the request\."/);
    expect(child.stdout()).toContain('requests still open were ended with a "shutting down" error');
  });

  it('should let an open stream finish on Ctrl-C under npm start', async () => {
    const path = await writeConfig('npm-drain.yaml', slowConfig(5_000, 6));
    const child = track(
      spawnProcess('npm', ['start', '--silent', '--', 'serve', '--config', path, '--port', '0'], cleanEnv({ TEST_GATEWAY_KEY: 'sk-k' })),
    );
    const banner = await readBanner(child);
    const response = await chat(banner.openAIBaseURL, 'sk-k', 'slow', true);
    const body = readAll(response);
    child.signal('SIGINT');
    const raw = await body;
    expect(streamedText(raw)).toBe(DEFAULT_MOCK_REPLY);
    expect(raw).toContain('data: [DONE]');
    await child.exited;
    expect(child.stdout()).toContain('Stopped.\n');
  });

  it('should close open streams at once on a second Ctrl-C', async () => {
    const path = await writeConfig('twice.yaml', slowConfig(30_000, 40));
    const child = track(spawnCli(['serve', '--config', path, '--port', '0'], cleanEnv({ TEST_GATEWAY_KEY: 'sk-k' })));
    const banner = await readBanner(child);
    const body = readAll(await chat(banner.openAIBaseURL, 'sk-k', 'slow', true));
    child.signal('SIGINT');
    await child.waitForOutput(/no longer accepting connections/);
    await new Promise((resolve) => setTimeout(resolve, 700));
    const second = Date.now();
    child.signal('SIGINT');
    expect((await child.exited).code).toBe(0);
    expect(Date.now() - second).toBeLessThan(2_000);
    expect(await body).not.toContain('[DONE]');
    expect(child.stdout()).toContain('SIGINT again: closing open requests now.');
  });

  it('should exit 1 naming the bad field of the file', async () => {
    const path = await writeConfig('bad.yaml', 'models:\n  - { id: a, provider: mock }\n  - { id: b }\n');
    const { code, stderr } = await runCliInProcess(['serve', '--config', path], cleanEnv());
    expect(code).toBe(1);
    expect(stderr).toContain('models[1].provider');
  });

  it('should exit 1 naming a missing environment variable', async () => {
    const path = await writeConfig('env.yaml', 'apiKeys: ["${NOT_SET_ANYWHERE_42}"]\n');
    const { code, stderr } = await runCliInProcess(['serve', '--config', path], cleanEnv());
    expect(code).toBe(1);
    expect(stderr).toContain('NOT_SET_ANYWHERE_42');
  });
});

describe('switchyard config check', () => {
  // A real process: one that ends by itself, with status 0, when the command is done.
  it('should report a valid file with its providers and models, and exit 0 without listening', async () => {
    const path = await writeConfig(
      'check.yaml',
      'apiKeys: ["${TEST_GATEWAY_KEY}"]\nproviders:\n  slow: { type: mock, chunks: 2 }\n  local: { type: openai-compatible, profile: ollama, baseURL: "http://localhost:11434/v1" }\n' +
        'models:\n  - { id: slow, provider: slow }\n  - { id: llama3.2, provider: local }\n',
    );
    const child = spawnCli(['config', 'check', path], cleanEnv({ TEST_GATEWAY_KEY: 'sk-k' }));
    expect((await child.exited).code).toBe(0);
    expect(child.stdout()).toBe(`${path} is valid: 2 providers, 2 models (slow, llama3.2)\n`);
    expect(child.stderr()).toBe('');
  });

  it('should say when the default models of providers without models: are used', async () => {
    const path = await writeConfig('defaults.yaml', 'providers:\n  openai: { apiKey: sk-dummy }\n');
    const { code, stdout } = await runCliInProcess(['config', 'check', '--config', path], cleanEnv());
    expect(code).toBe(0);
    expect(stdout).toContain(`${path} is valid: 1 provider, 4 models (mock, gpt-5.4, gpt-5.4-mini, gpt-4.1-mini)`);
    expect(stdout).toContain('Note: ');
  });

  it('should print every missing variable and exit 1', async () => {
    const path = await writeConfig('check-env.yaml', 'apiKeys: ["${NOT_SET_A_42}"]\nproviders:\n  openai: { apiKey: "${NOT_SET_B_42}" }\n');
    const { code, stderr } = await runCliInProcess(['config', 'check', path], cleanEnv());
    expect(code).toBe(1);
    expect(stderr).toContain(`switchyard: ${path} has 2 environment variable references that cannot be filled in:`);
    expect(stderr).toContain('NOT_SET_A_42');
    expect(stderr).toContain('NOT_SET_B_42');
  });

  it('should print what is wrong with a field and exit 1', async () => {
    const path = await writeConfig('check-port.yaml', 'server: { port: eighty }\n');
    const { code, stderr } = await runCliInProcess(['config', 'check', path], cleanEnv());
    expect(code).toBe(1);
    expect(stderr).toBe(`switchyard: ${path} has an invalid field:\n  server.port must be a port number 0–65535 (got 'eighty')\n`);
  });

  it('should catch what only building the gateway finds, naming the file', async () => {
    const path = await writeConfig('check-dup.yaml', 'models:\n  - { id: a, provider: mock }\n  - { id: a, provider: mock }\n');
    const { code, stderr } = await runCliInProcess(['config', 'check', path], cleanEnv());
    expect(code).toBe(1);
    expect(stderr).toContain(`switchyard: ${path}: The model id or alias 'a' is configured twice`);
  });
});
