// A bench server run under `valgrind --tool=callgrind`, counting nothing until told to: the
// instructions of a window of requests are read by turning instrumentation on, zeroing, sending
// the requests, and dumping (callgrind_control talks to the running process through vgdb).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jitCompilation, oldGenerationGc, readCallgrindCounts, type CallgrindCounts } from './callgrind-counts.js';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Node's flags under callgrind. `--single-threaded` keeps V8's compilers and garbage collector on
 * the main thread: with their helper threads, the counts of two identical runs differed by up to
 * 10 % (valgrind runs one thread at a time, so how long a helper spins or how far a background
 * compile has got depends on scheduling); without them they repeat. The JIT is on, as in production.
 *
 * `--min-semi-space-size=16` (MB): V8 grows the young generation by how fast a process allocates
 * per millisecond, and under callgrind the gateway allocates 50 times slower, so it kept a small
 * one and scavenged its requests in flight over and over: 63k–96k instructions a request went to
 * scavenges, against 2.5 µs a request natively (`--trace-gc-nvp`). Natively under load the
 * gateway's semi-space is 16 MB already (a scavenge every ~360 requests, with the flag or
 * without); with it here, scavenges cost 2k–3.5k a request. The passthrough natively stays at 8 MB
 * (its scavenges, 1–4k instructions a request, halve with the flag).
 *
 * `--no-memory-reducer`: V8's memory reducer takes a process whose allocation per millisecond
 * falls for idle and runs full GCs to shrink its heap; under callgrind every process looks idle, so
 * it ran them in the middle of the measured windows (`--trace-gc`: "Mark-Compact (reduce)"), and
 * each threw away the optimized code that embedded the other paths' objects, which the next paths
 * then recompiled inside their windows (20–50 % of them). Natively a server under load allocates
 * fifty times faster, which is what the reducer's idle test looks at (reasoned, not measured here).
 */
export const NODE_FLAGS_UNDER_CALLGRIND = ['--single-threaded', '--min-semi-space-size=16', '--no-memory-reducer'];

/**
 * The caches `--cache-sim` has callgrind simulate: 32 KB first levels for instructions and data,
 * as current server cores have, and as the last level a core's own 1 MB second level (AMD Zen 4
 * and 5; 512 KB on Zen 2 and 3, 1-2 MB on recent Xeons), not the shared third: on a cloud machine
 * that one is shared with whatever else runs there, so a process cannot count on it. What does not
 * fit in 1 MB of code and data together costs a trip further out natively, and instruction counts
 * do not show it (docs/performance.md#instructions-and-cpu-time-disagree).
 */
export const SIMULATED_CACHES = ['--cache-sim=yes', '--I1=32768,8,64', '--D1=32768,8,64', '--LL=1048576,16,64'];

/** The servers running under callgrind, for the bench to stop if it is interrupted. */
export const runningUnderCallgrind = new Set<ChildProcess>();

export interface CallgrindServer {
  child: ChildProcess;
  pid: number;
  url: string;
  /** The stored key the server printed, if any. */
  storedKey?: string;
  /** The stages a request runs, as the gateway server printed them (`stages a,b,c`); undefined for the passthrough. */
  stages?: string;
  /** Starts counting (from zero). */
  start(): Promise<void>;
  /** Stops counting and returns what was counted since `start()`, with V8's compilers and old-generation GC apart. */
  stop(label: string): Promise<CallgrindCounts<'compile' | 'gc'>>;
  /** Turns instrumentation on or off without counting (the warm-up's rehearsal of a window's start). */
  instrument(on: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function startUnderCallgrind(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  outDir: string,
  /** More of valgrind's options (SIMULATED_CACHES). */
  valgrindOptions: readonly string[] = [],
): Promise<CallgrindServer> {
  const out = join(outDir, 'callgrind.out');
  const valgrindLog = join(outDir, 'valgrind.log');
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no', // uninstrumented until start(): the warm-up runs about twice as fast
      '--smc-check=all-non-file', // V8 writes and rewrites machine code in anonymous memory (the default on amd64, stated)
      `--callgrind-out-file=${out}`,
      `--log-file=${valgrindLog}`,
      ...valgrindOptions,
      process.execPath,
      ...NODE_FLAGS_UNDER_CALLGRIND,
      script,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error('valgrind did not start');
  runningUnderCallgrind.add(child);
  child.once('exit', () => runningUnderCallgrind.delete(child));
  const { port, storedKey, stages } = await new Promise<{ port: number; storedKey?: string; stages?: string }>((resolve, reject) => {
    let printed = '';
    const exited = (code: number | null) =>
      reject(
        new Error(
          `${script} under valgrind exited with ${code}: ${existsSync(valgrindLog) ? readFileSync(valgrindLog, 'utf8').slice(-2000) : ''}`,
        ),
      );
    child.once('exit', exited);
    child.stdout.on('data', (text: Buffer) => {
      printed += text.toString();
      const listening = /listening (\d+)/.exec(printed);
      if (listening === null) return;
      child.off('exit', exited);
      const key = /key (sk-sy-\S+)/.exec(printed)?.[1];
      const stages = /stages (\S+)/.exec(printed)?.[1];
      resolve({
        port: Number(listening[1]),
        ...(key === undefined ? {} : { storedKey: key }),
        ...(stages === undefined ? {} : { stages }),
      });
    });
  });
  const control = async (...command: string[]) => {
    await run('callgrind_control', [...command, String(pid)]);
  };
  let part = 0;
  return {
    child,
    pid,
    url: `http://127.0.0.1:${port}`,
    ...(storedKey === undefined ? {} : { storedKey }),
    ...(stages === undefined ? {} : { stages }),
    async start() {
      await control('--instr=on');
      await control('--zero');
    },
    async stop(label) {
      await control(`--dump=${label}`);
      await control('--instr=off');
      part += 1;
      return readCallgrindCounts(await finishedDump(`${out}.${part}`), { compile: jitCompilation, gc: oldGenerationGc });
    },
    async instrument(on) {
      await control(`--instr=${on ? 'on' : 'off'}`);
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const late = setTimeout(() => child.kill('SIGKILL'), 60_000);
      await exited;
      clearTimeout(late);
    },
  };
}

/** The dump's text once callgrind has written all of it (its last line is `totals:`). */
async function finishedDump(file: string): Promise<string> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (existsSync(file)) {
      const text = readFileSync(file, 'utf8');
      if (/^totals: /m.test(text)) return text;
    }
    await sleep(100);
  }
  throw new Error(`callgrind did not write ${file}`);
}
