import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createOpenAICompatibleProvider } from '../../src/providers/openai-compatible/index.js';
import type { CheckResult } from '../../src/server/check/run-check.js';
import { silentLogger } from '../../src/logger.js';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { startServer } from '../../src/server/start-server.js';
import { startMockUpstream, sseText, type MockReply, type MockUpstream, type RecordedRequest } from '../helpers/mock-upstream.js';
import { startGateway, TEST_KEY } from '../helpers/start-gateway.js';
import { useScratch } from '../helpers/scratch.js';
import { runCliInProcess } from './run-cli-in-process.js';
import { cleanEnv, spawnCli } from './spawn-cli.js';

const scratch = useScratch();

/** Runs `switchyard check …` in this process (run-cli-in-process.ts); resolves with its exit code and output. */
function check(args: readonly string[], env: Record<string, string> = {}) {
  return runCliInProcess(['check', ...args], cleanEnv(env));
}

/** Runs `switchyard check …` as a process: for the exit status that process.exitCode gives. */
async function checkProcess(args: readonly string[]) {
  const running = spawnCli(['check', ...args], cleanEnv());
  const exit = await running.exited;
  return { code: exit.code, stdout: running.stdout(), stderr: running.stderr() };
}

async function checkJson(args: readonly string[], env: Record<string, string> = {}) {
  const { code, stdout, stderr } = await check([...args, '--json'], env);
  return { code, result: JSON.parse(stdout) as CheckResult, stderr };
}

const cells = (result: CheckResult) => Object.fromEntries(result.steps.map((step) => [`${step.protocol} ${step.capability}`, step.status]));
const codes = (result: CheckResult) => result.diagnoses.map((diagnosis) => diagnosis.code);

async function serve(options: GatewayOptions = {}) {
  // The upstream's answers reach `check` as they are: the gateway's own retries would hide the 429s it must see.
  const running = await startGateway({ retries: { attempts: 0 }, ...options });
  scratch.later(() => running.gateway.close());
  scratch.later(() => running.close());
  return running;
}

/** A Chat Completions upstream that answers plainly, streams, and calls the tool it is asked to. */
function chatAnswer(request: RecordedRequest): MockReply {
  const body = request.body as { stream?: boolean; model?: string; tools?: unknown[] };
  const message = body.tools
    ? {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      }
    : { role: 'assistant', content: 'OK' };
  const usage = { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 };
  if (!body.stream) {
    return {
      json: {
        id: 'c1',
        object: 'chat.completion',
        created: 1,
        model: body.model,
        choices: [{ index: 0, message, finish_reason: body.tools ? 'tool_calls' : 'stop' }],
        usage,
      },
    };
  }
  const chunk = (delta: object, finish: string | null = null) => ({
    data: {
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 1,
      model: body.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    },
  });
  return { sse: sseText([chunk({ role: 'assistant', content: 'OK' }), chunk({}, 'stop'), { data: '[DONE]' }]) };
}

async function upstreamOf(...replies: Array<MockReply | ((request: RecordedRequest) => MockReply)>): Promise<MockUpstream> {
  const upstream = await startMockUpstream();
  upstream.reply(...replies);
  scratch.later(() => upstream.close());
  return upstream;
}

const upstreamProvider = (upstream: MockUpstream) => ({
  up: createOpenAICompatibleProvider({ id: 'up', baseURL: `${upstream.url}/v1`, apiKey: 'sk-upstream-0123456789abcdef' }),
});

/** Someone else's gateway: Chat Completions only (404 on everything else), with its own key. */
async function thirdPartyGateway(key: string): Promise<string> {
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => resolve(text));
    });
  const server: Server = createServer(async (req, res) => {
    const text = await read(req);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
      return;
    }
    if (req.headers.authorization !== `Bearer ${key}`) {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'Invalid API key', type: 'invalid_request_error' } }));
      return;
    }
    const reply = chatAnswer({
      method: 'POST',
      url: req.url,
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      body: JSON.parse(text) as unknown,
    });
    if ('sse' in reply) res.writeHead(200, { 'content-type': 'text/event-stream' }).end(reply.sse);
    else if ('json' in reply) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  scratch.later(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const ALL_OK = Object.fromEntries(
  ['minimal', 'streaming', 'tools', 'image'].flatMap((capability) =>
    ['chat', 'responses', 'messages'].map((protocol) => [`${protocol} ${capability}`, 'ok']),
  ),
);

// The CLI runs in this process but for one test, which spawns it (a few seconds on a busy machine).
describe('switchyard check against this gateway', { timeout: 60_000 }, () => {
  it('should pass every step on every endpoint, print progress and the table, and exit 0', async () => {
    const running = await serve();
    const { code, stdout, stderr } = await check(['--base-url', running.openAIBaseURL, '--key', TEST_KEY, '--model', 'mock']);
    expect(stderr).toContain(`Checking ${running.openAIBaseURL} with model 'mock' (chat, responses, messages)`);
    expect(stderr).toMatch(/messages {2}image input ok \(\d+ ms\)/);
    expect(stdout).toMatch(/^\s+chat\s+responses\s+messages$/m);
    expect(stdout).toMatch(/^minimal request\s+ok\s+ok\s+ok$/m);
    expect(stdout).toMatch(/^image input\s+ok\s+ok\s+ok$/m);
    expect(stdout).toContain('All 12 checks passed.');
    expect(stdout + stderr).not.toContain(TEST_KEY);
    expect(code).toBe(0);

    const json = await checkJson(['--base-url', running.openAIBaseURL, '--key', TEST_KEY, '--model', 'mock']);
    expect(json.code).toBe(0);
    expect(json.result).toMatchObject({
      ok: true,
      baseUrl: { given: running.openAIBaseURL, used: running.openAIBaseURL },
      model: 'mock',
      diagnoses: [],
    });
    expect(cells(json.result)).toEqual(ALL_OK);
  });

  it('should report a model without image input, and exit 1', async () => {
    const running = await serve({ models: [{ id: 'blind', provider: 'mock', capabilities: { images: false } }] });
    // A real process: its exit status is process.exitCode, set when the ladder found a failure.
    const { code, stdout } = await checkProcess(['--base-url', running.openAIBaseURL, '--key', TEST_KEY, '--model', 'blind']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^tool call\s+ok\s+ok\s+ok$/m);
    expect(stdout).toMatch(/^image input\s+FAILED\s+FAILED\s+FAILED$/m);
    expect(stdout).toMatch(/chat image input: image input refused \(400\): .*image/);
    expect(stdout).toContain('9 of 12 checks passed.');
  });

  it('should say when the provider fails (500), skipping the rest', async () => {
    const upstream = await upstreamOf({ status: 500, json: { error: { message: 'boom', type: 'server_error' } } });
    const running = await serve({ providers: upstreamProvider(upstream), models: [{ id: 'broken', provider: 'up' }] });
    const { code, result } = await checkJson(['--base-url', running.openAIBaseURL, '--key', TEST_KEY, '--model', 'broken']);
    expect(code).toBe(1);
    expect(codes(result)).toEqual(['UPSTREAM_FAILED']);
    expect(result.steps.filter((step) => step.capability === 'minimal').map((step) => [step.status, step.httpStatus])).toEqual([
      ['failed', 500],
      ['failed', 500],
      ['failed', 500],
    ]);
    expect(result.steps.filter((step) => step.capability !== 'minimal').every((step) => step.status === 'skipped')).toBe(true);
    expect(result.steps[0]?.detail).toMatch(/^the gateway or its provider failed \(500\): .*boom/);
  });

  it('should back off on 429 one request at a time, and succeed when the limit lifts', async () => {
    const limited: MockReply = {
      status: 429,
      headers: { 'retry-after': '0' },
      json: { error: { message: 'slow down', type: 'rate_limit_error' } },
    };
    const upstream = await upstreamOf(limited, limited, chatAnswer);
    const running = await serve({ providers: upstreamProvider(upstream), models: [{ id: 'busy', provider: 'up' }] });
    const { code, result, stderr } = await checkJson([
      '--base-url',
      running.openAIBaseURL,
      '--key',
      TEST_KEY,
      '--model',
      'busy',
      '--protocol',
      'chat',
    ]);
    expect(stderr).toContain('429 rate limited: waiting 0.0 s before retry 1');
    expect(stderr).toContain('before retry 2');
    expect(cells(result)).toEqual({ 'chat minimal': 'ok', 'chat streaming': 'ok', 'chat tools': 'ok', 'chat image': 'ok' });
    expect(code).toBe(0);
    // Never two at once: the upstream saw the retries, then one request per step.
    expect(upstream.requests).toHaveLength(2 + 4);
  });

  it('should give up on a lasting 429 after its retries and say so', async () => {
    const upstream = await upstreamOf({
      status: 429,
      headers: { 'retry-after': '0' },
      json: { error: { message: 'quota', type: 'rate_limit_error' } },
    });
    const running = await serve({ providers: upstreamProvider(upstream), models: [{ id: 'busy', provider: 'up' }] });
    const { code, result } = await checkJson([
      '--base-url',
      running.openAIBaseURL,
      '--key',
      TEST_KEY,
      '--model',
      'busy',
      '--protocol',
      'chat',
    ]);
    expect(code).toBe(1);
    expect(codes(result)).toEqual(['RATE_LIMITED']);
    expect(result.steps[0]).toMatchObject({ status: 'failed', httpStatus: 429 });
    expect(upstream.requests).toHaveLength(4);
  });

  it('should time out a hanging upstream at --timeout', async () => {
    const upstream = await upstreamOf({ hang: true });
    const running = await serve({ providers: upstreamProvider(upstream), models: [{ id: 'stuck', provider: 'up' }] });
    const { code, result } = await checkJson([
      '--base-url',
      running.openAIBaseURL,
      '--key',
      TEST_KEY,
      '--model',
      'stuck',
      '--protocol',
      'chat',
      '--timeout',
      '1',
    ]);
    expect(code).toBe(1);
    expect(codes(result)).toEqual(['TIMEOUT']);
    expect(result.steps[0]).toMatchObject({ status: 'failed', detail: 'no answer within 1 s' });
    expect(result.diagnoses[0]?.message).toContain('Raise --timeout');
  });

  it('should find the right base URL when /v1 is there twice or missing', async () => {
    const running = await serve();
    const twice = await checkJson([
      '--base-url',
      `${running.openAIBaseURL}/v1/`,
      '--key',
      TEST_KEY,
      '--model',
      'mock',
      '--protocol',
      'chat',
    ]);
    expect(twice.code).toBe(1);
    expect(codes(twice.result)).toEqual(['DOUBLE_V1_PATH']);
    expect(twice.result.diagnoses[0]?.message).toContain(`Use ${running.openAIBaseURL}`);
    expect(twice.result.baseUrl.used).toBe(running.openAIBaseURL);
    expect(twice.result.steps.every((step) => step.status === 'ok')).toBe(true);

    const missing = await check(['--base-url', running.root, '--key', TEST_KEY, '--model', 'mock', '--protocol', 'messages']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain(`The base URL is missing /v1`);
    expect(missing.stdout).toContain(`Use ${running.openAIBaseURL}`);
    expect(missing.stdout).toMatch(/^minimal request\s+ok$/m);
  });

  it('should say /v1 is missing to a standalone server whose console is at the root', async () => {
    const server = await startServer(
      { database: { url: scratch.file('check-console') }, apiKeys: [TEST_KEY], logger: silentLogger },
      { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 1_000 },
    );
    scratch.later(() => server.close().done);
    expect(server.consoleUrl).toBe(`${server.root}/`);
    const missing = await checkJson(['--base-url', server.root, '--key', TEST_KEY, '--model', 'mock', '--protocol', 'chat']);
    expect(codes(missing.result)).toEqual(['MISSING_V1_PATH']);
    expect(missing.result.baseUrl.used).toBe(server.openAIBaseURL);
    expect(missing.result.steps.every((step) => step.status === 'ok')).toBe(true);
  });

  it("should spot a key typed with 'Bearer ' and go on without it", async () => {
    const running = await serve();
    const bearer = await checkJson([
      '--base-url',
      running.openAIBaseURL,
      '--key',
      `Bearer ${TEST_KEY}`,
      '--model',
      'mock',
      '--protocol',
      'chat',
    ]);
    expect(bearer.code).toBe(1);
    expect(codes(bearer.result)).toEqual(['KEY_HAS_BEARER_PREFIX']);
    expect(bearer.result.diagnoses[0]?.message).toContain('give the key alone');
    expect(bearer.result.steps.every((step) => step.status === 'ok')).toBe(true);
  });

  it('should stop at a refused key (401)', async () => {
    const running = await serve();
    const refused = await checkJson(['--base-url', running.openAIBaseURL, '--key', 'sk-wrong-key-0000000000', '--model', 'mock']);
    expect(refused.code).toBe(1);
    expect(codes(refused.result)).toEqual(['KEY_REFUSED']);
    expect(refused.result.steps[0]).toMatchObject({ status: 'failed', httpStatus: 401 });
    expect(refused.result.steps.slice(1).every((step) => step.status === 'skipped')).toBe(true);
  });

  it('should name the closest model id to an unknown one', async () => {
    const running = await serve({
      models: [
        { id: 'mock', provider: 'mock' },
        { id: 'claude-haiku-4-5', provider: 'mock' },
      ],
    });
    // The key may come from the environment instead of --key.
    const unknown = await check(['--base-url', running.openAIBaseURL, '--model', 'claude-haiku-4.5'], { SWITCHYARD_API_KEY: TEST_KEY });
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain(
      "The gateway does not know the model 'claude-haiku-4.5'. The closest id it lists is 'claude-haiku-4-5'.",
    );
  });

  it('should refuse a call without --model, with exit code 2', async () => {
    const { code, stderr } = await check(['--base-url', 'http://127.0.0.1:9/v1', '--key', 'k']);
    expect(code).toBe(2);
    expect(stderr).toContain("'check' needs --model");
  });
});

describe('switchyard check against another gateway', { timeout: 60_000 }, () => {
  const KEY = 'other-gateway-key-123';

  it('should pass the ladder on the one endpoint it serves', async () => {
    const baseUrl = await thirdPartyGateway(KEY);
    const { code, result } = await checkJson(['--base-url', baseUrl, '--key', KEY, '--model', 'their-model', '--protocol', 'chat']);
    expect(cells(result)).toEqual({ 'chat minimal': 'ok', 'chat streaming': 'ok', 'chat tools': 'ok', 'chat image': 'ok' });
    expect(code).toBe(0);
  });

  it('should report the endpoints it does not serve, and find /v1 by trying', async () => {
    const baseUrl = await thirdPartyGateway(KEY);
    const all = await check(['--base-url', baseUrl.replace(/\/v1$/, ''), '--key', KEY, '--model', 'their-model']);
    expect(all.code).toBe(1);
    expect(all.stdout).toMatch(/^minimal request\s+ok\s+FAILED\s+FAILED$/m);
    expect(all.stdout).toMatch(/^streaming\s+ok\s+skipped\s+skipped$/m);
    expect(all.stdout).toContain(`responses minimal request: not served (404) at ${baseUrl}/responses`);
    expect(all.stdout).toContain('The base URL is missing /v1');
    expect(all.stdout).toContain('does not serve every endpoint asked for (404)');
  });
});
