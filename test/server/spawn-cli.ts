import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The repository root: where `npm start` runs. */
export const projectRoot = join(import.meta.dirname, '../..');

/**
 * The environment without provider keys, so a test never reaches a real provider by accident, and
 * with a database file of its own in the temporary directory (not `switchyard.db` in the repository).
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'SWITCHYARD_API_KEY']) delete env[name];
  const database = join(tmpdir(), `switchyard-cli-${randomBytes(6).toString('hex')}.db`);
  return { ...env, SWITCHYARD_DATABASE: database, ...extra };
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningProcess {
  child: ChildProcess;
  /** The environment it was started with. */
  env: NodeJS.ProcessEnv;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout; rejects if the process exits first. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<Exit>;
  /** Sends `signal` to the whole process group, as a terminal does on Ctrl-C. */
  signal(signal: NodeJS.Signals): void;
  /** SIGINT, then the exit (SIGKILL after `timeoutMs`). */
  stop(timeoutMs?: number): Promise<Exit>;
}

/** Starts `command` in its own process group (so npm, tsx and the server all get the signal), in `cwd` (default: the repository). */
export function spawnProcess(command: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd = projectRoot): RunningProcess {
  const child = spawn(command, [...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<Exit>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  let done = false;
  void exited.then(() => (done = true));

  const signal = (name: NodeJS.Signals) => {
    if (done || child.pid === undefined) return;
    try {
      process.kill(-child.pid, name);
    } catch {
      // the group is already gone
    }
  };

  return {
    child,
    env,
    stdout: () => out,
    stderr: () => err,
    exited,
    signal,
    waitForOutput(pattern, timeoutMs = 45_000) {
      return new Promise((resolve, reject) => {
        const timer = setInterval(() => {
          const match = pattern.exec(out);
          if (match) {
            clear();
            resolve(match);
          } else if (done) {
            clear();
            reject(new Error(`exited before printing ${pattern}:\n${out}\n${err}`));
          }
        }, 25);
        const deadline = setTimeout(() => {
          clear();
          reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${out}\n${err}`));
        }, timeoutMs);
        const clear = () => {
          clearInterval(timer);
          clearTimeout(deadline);
        };
      });
    },
    async stop(timeoutMs = 10_000) {
      signal('SIGINT');
      const killer = setTimeout(() => signal('SIGKILL'), timeoutMs);
      const exit = await exited;
      clearTimeout(killer);
      return exit;
    },
  };
}

/** Runs the CLI from source (`node --import tsx src/server/cli.ts …`), as `npm start` does but without npm. */
export function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv = cleanEnv()): RunningProcess {
  return spawnProcess(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', ...args], env);
}

export interface Banner {
  root: string;
  openAIBaseURL: string;
  key: string;
}

/**
 * Waits for the startup banner and reads the URLs and key from it. A key from SWITCHYARD_API_KEY
 * is printed masked: it is then the one in the process's environment.
 */
export async function readBanner(running: RunningProcess): Promise<Banner> {
  await running.waitForOutput(/Press Ctrl-C to stop/);
  return parseBanner(running.stdout(), running.env);
}

/** The URLs and key of a banner in `stdout`, printed by a server started with `env`. */
export function parseBanner(stdout: string, env: NodeJS.ProcessEnv): Banner {
  const field = (label: RegExp) => {
    const value = label.exec(stdout)?.[1];
    if (value === undefined) throw new Error(`no ${label} in:\n${stdout}`);
    return value;
  };
  return {
    root: field(/API root[^:]*:\s+(\S+)/),
    openAIBaseURL: field(/OpenAI base URL:\s+(\S+)/),
    key: /API key:.*\(from SWITCHYARD_API_KEY/.test(stdout) ? (env.SWITCHYARD_API_KEY ?? '').trim() : field(/API key:\s+(\S+)/),
  };
}
