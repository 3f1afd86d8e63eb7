import fs from 'node:fs';
import { vi } from 'vitest';
import { runCli } from '../../src/server/run-cli.js';

// The CLI's main function (what src/server/cli.ts runs) called in the test's own process, with the
// process boundary captured: stdout and stderr (and fd 1 and 2 written directly, as pino's
// destination writes the request log), the exit code and the SIGINT/SIGTERM handlers. A spawned
// CLI costs seconds of module loading and tsx transpiling per run; this costs none. What only a
// real process shows (an exit status, a signal, the npm start path) stays with spawned tests,
// which keep one real run per way the CLI exits: 0 when done and 2 through process.exit
// (cli.test.ts), 1 through process.exitCode (check-command.test.ts), 0 after a signal (cli.test.ts).

export interface CliOutcome {
  /** The status the process would exit with: process.exit's argument, else process.exitCode, else 0. */
  code: number;
  stdout: string;
  stderr: string;
}

type Write = typeof process.stdout.write;
type Signal = 'SIGINT' | 'SIGTERM';

/** Replaces the process boundary until `restore()`: writes are kept, exits and SIGINT/SIGTERM handlers recorded. */
function captureProcess() {
  let stdout = '';
  let stderr = '';
  let exitCode: number | undefined;
  const exited: Array<(code: number) => void> = [];
  const handlers = new Map<Signal, Array<(signal: Signal) => void>>();
  const keep = (add: (text: string) => void) => ((chunk: string | Uint8Array) => (add(chunk.toString()), true)) as Write;
  const addListener = process.addListener.bind(process) as (event: string | symbol, listener: (...args: unknown[]) => void) => unknown;
  const writeSync = fs.writeSync;
  const savedExitCode = process.exitCode;
  process.exitCode = undefined;
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(keep((text) => (stdout += text))),
    vi.spyOn(process.stderr, 'write').mockImplementation(keep((text) => (stderr += text))),
    vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, data: string | NodeJS.ArrayBufferView, ...rest: unknown[]) => {
      if (fd !== 1 && fd !== 2) return Reflect.apply(writeSync, fs, [fd, data, ...rest]) as number;
      const text = typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString();
      if (fd === 1) stdout += text;
      else stderr += text;
      return Buffer.byteLength(text);
    }) as typeof fs.writeSync),
    vi.spyOn(process, 'exit').mockImplementation(((code?: number) => {
      exitCode ??= code ?? 0;
      for (const resolve of exited.splice(0)) resolve(exitCode);
    }) as typeof process.exit),
    vi.spyOn(process, 'on').mockImplementation(((event: string | symbol, listener: (...args: unknown[]) => void) => {
      if (event === 'SIGINT' || event === 'SIGTERM') handlers.set(event, [...(handlers.get(event) ?? []), listener]);
      else addListener(event, listener);
      return process;
    }) as typeof process.on),
  ];
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    code: () => exitCode ?? Number(process.exitCode ?? 0),
    /** Resolves with the code of the first process.exit call. */
    exit: () => new Promise<number>((resolve) => (exitCode === undefined ? exited.push(resolve) : resolve(exitCode))),
    /** Calls the handlers the CLI registered for `signal`, as the process would on receiving it. */
    signal: (signal: Signal) => {
      for (const handler of handlers.get(signal) ?? []) handler(signal);
    },
    restore: () => {
      for (const spy of spies) spy.mockRestore();
      process.exitCode = savedExitCode;
    },
  };
}

/** Runs a command that ends by itself (`config check`, `check`, a refused flag…) and returns what the process would have shown. */
export async function runCliInProcess(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliOutcome> {
  const captured = captureProcess();
  try {
    await runCli(args, env);
    return { code: captured.code(), stdout: captured.stdout(), stderr: captured.stderr() };
  } finally {
    captured.restore();
  }
}

export interface ServingInProcess {
  stdout(): string;
  stderr(): string;
  /** SIGINT to the CLI's own handler; resolves once it has stopped the server and exited, with the code. */
  stop(): Promise<number>;
}

/**
 * Runs `serve` until its banner is out. The process boundary stays captured until `stop()` (the
 * server writes on stdout while it runs), so a test must stop it before the next one starts.
 */
export async function serveInProcess(args: readonly string[], env: NodeJS.ProcessEnv): Promise<ServingInProcess> {
  const captured = captureProcess();
  try {
    await runCli(args, env);
  } catch (error) {
    captured.restore();
    throw error;
  }
  let stopped: Promise<number> | undefined;
  return {
    stdout: captured.stdout,
    stderr: captured.stderr,
    stop: () => {
      stopped ??= (async () => {
        try {
          const exit = captured.exit();
          captured.signal('SIGINT');
          return await exit;
        } finally {
          captured.restore();
        }
      })();
      return stopped;
    },
  };
}
