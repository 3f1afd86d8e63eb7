import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The real CLIs, installed as dev dependencies. */
export const CLAUDE_BIN = resolve('node_modules/.bin/claude');
export const CODEX_BIN = resolve('node_modules/.bin/codex');

/** What a CLI run left behind. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The agent's final answer: Claude Code's stdout, Codex's `--output-last-message` file. */
  readonly answer: string;
}

/**
 * Why `bin` cannot run here (missing, or `--version` fails), or undefined when it can. Printed
 * as the reason its tests are skipped.
 */
export function whyCannotRun(bin: string): string | undefined {
  if (!existsSync(bin)) return `${bin} is not installed (npm install installs the dev dependencies)`;
  const probe = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000, env: quietEnv(tmpdir()) });
  if (probe.error !== undefined) return `${bin} --version failed: ${probe.error.message}`;
  if (probe.status !== 0) return `${bin} --version exited with ${probe.status}: ${probe.stderr.trim().slice(0, 300)}`;
  return undefined;
}

/**
 * A minimal environment: a temporary HOME, no keys or settings of the machine's user, telemetry
 * and update checks off, and a dead proxy for anything but loopback, so that a call to the
 * internet fails at once instead of hanging (no network beyond loopback).
 */
function quietEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: tmpdir(),
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    HTTPS_PROXY: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
  };
}

/** Runs `bin` to its end or `timeoutMs` (then kills it and says so in stderr). */
function run(bin: string, args: string[], env: Record<string, string>, cwd: string, timeoutMs: number): Promise<Omit<CliRun, 'answer'>> {
  return new Promise((done, fail) => {
    const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      stderr += `\n[killed after ${timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** A fresh directory for one run: its HOME and working directory. */
async function scratch(): Promise<{ home: string; work: string; remove: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'switchyard-cli-'));
  const home = join(root, 'home');
  const work = join(root, 'work');
  await mkdir(home);
  await mkdir(work);
  return { home, work, remove: () => rm(root, { recursive: true, force: true }) };
}

export interface AgentRun {
  /** The gateway's root (Anthropic clients' base URL); `/v1` is added for Codex. */
  readonly gatewayRoot: string;
  readonly key: string;
  readonly model: string;
  readonly prompt: string;
  readonly timeoutMs: number;
}

/** Claude Code, non-interactive (`-p`), against the gateway, allowed to run Bash. */
export async function runClaudeCode(options: AgentRun): Promise<CliRun> {
  const dirs = await scratch();
  try {
    const env = {
      ...quietEnv(dirs.home),
      ANTHROPIC_BASE_URL: options.gatewayRoot,
      ANTHROPIC_API_KEY: options.key,
      // Its side calls (titles, summaries) go to the same model, not to an unknown Haiku.
      ANTHROPIC_DEFAULT_HAIKU_MODEL: options.model,
      ANTHROPIC_SMALL_FAST_MODEL: options.model,
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_BUG_COMMAND: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
    };
    const args = ['-p', options.prompt, '--model', options.model, '--output-format', 'text', '--allowedTools', 'Bash', '--max-turns', '4'];
    const result = await run(CLAUDE_BIN, args, env, dirs.work, options.timeoutMs);
    return { ...result, answer: result.stdout.trim() };
  } finally {
    await dirs.remove();
  }
}

/** Codex CLI, `codex exec`, with a model provider pointing at the gateway's `/v1` over the Responses API. */
export async function runCodex(options: AgentRun): Promise<CliRun> {
  const dirs = await scratch();
  try {
    const codexHome = join(dirs.home, '.codex');
    await mkdir(codexHome);
    const config = [
      `model = "${options.model}"`,
      'model_provider = "switchyard"',
      'check_for_update_on_startup = false',
      '[model_providers.switchyard]',
      'name = "Switchyard"',
      `base_url = "${options.gatewayRoot}/v1"`,
      'env_key = "SWITCHYARD_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '[analytics]',
      'enabled = false',
      '[otel]',
      'exporter = "none"',
    ].join('\n');
    await writeFile(join(codexHome, 'config.toml'), `${config}\n`);
    const env = { ...quietEnv(dirs.home), CODEX_HOME: codexHome, SWITCHYARD_KEY: options.key };
    const last = join(dirs.home, 'last-message.txt');
    const args = ['exec', '--skip-git-repo-check', '--sandbox', 'danger-full-access', '--output-last-message', last, options.prompt];
    const result = await run(CODEX_BIN, args, env, dirs.work, options.timeoutMs);
    const answer = await readFile(last, 'utf8').catch(() => '');
    return { ...result, answer: answer.trim() };
  } finally {
    await dirs.remove();
  }
}
