// `npm run bench -- --instructions`: CPU instructions per request, counted by callgrind, for each
// configuration in bench/instruction-configurations.ts on each path, JSON and streamed. Timings on
// a shared machine swing ±30 %; instruction counts repeat run to run, so they decide what is faster.
//
// Each configuration is one server process under callgrind (uninstrumented until measured), serving
// every path in turn, as in the main table. First every (path, answer) gets its warm-up requests (in rounds on new connections),
// then each gets its measured requests, sent from this process (not under valgrind) over a few
// keep-alive connections, one request at a time on each. What V8's compilers and its old-generation GC ran in a
// window is reported apart and left out of the per-request figure (bench/callgrind-counts.ts).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { endpointOf, expectedAnswerText, protocolOf, requestBody, requestHeaders, type BenchPath } from './bodies.js';
import { cacheMisses, estimatedCycles, type CallgrindCounts } from './callgrind-counts.js';
import { SIMULATED_CACHES, startUnderCallgrind } from './callgrind-server.js';
import type { InstructionConfiguration } from './instruction-configurations.js';
import { sendSequentially, type RequestPlan } from './sequential-requests.js';

/**
 * The ledger's commit window and the request log's flush window in this mode (50 ms and 10 ms
 * natively). Under callgrind the server runs about 50 times slower, so a 10 ms window would hold
 * one or two requests where natively, at the same concurrency, it holds dozens: stretched by that
 * factor, a write of the log is shared by as many requests as it would be outside valgrind. The
 * ledger's 50 ms is stretched less (stretched fully, a measured window would hold one or two
 * commits), so its commits are shared by fewer rows than natively: its share reads high. (Not the Redis
 * limits' 10 ms give-back wait: unstretched, the window's calls a request, 0.30 on 8 connections,
 * are already near native's 0.34 (docs/performance.md), and stretched they fell to 0.23.)
 */
export const STRETCHED_WINDOW_MS = 500;

/**
 * Work the server does on a clock rather than per request, stretched by the same factor: the
 * unusual-spend watch's check (every 60 s natively) and the stored-key cache's refresh (every
 * 5 s). Natively a check is shared by the few hundred thousand requests of a minute; under
 * callgrind a minute holds a few thousand, so each check weighed fifty times its share. (The
 * first check also started the SQLite reader thread until it started with the database, adding up
 * to 20k instructions to each request of the window it fell in.) And the renewal of the Redis
 * limits' leases (every `leaseMs / 3`, 20 s natively): a rare event natively, every few thousand
 * requests under callgrind, whose first one (an array of renewals where there had only been empty
 * ones) deoptimized the store's batch, send and answer (`wrong map`), and one sent alone in the
 * stall of turning instrumentation on did it again (`--trace-deopt`, bytecode offsets read with
 * `--print-bytecode`). And the background checkpoints of the SQLite ledger (every second): each
 * has a fixed part (its passes, the WAL's index read, the sync) that natively thousands of rows share.
 */
export const STRETCHED_CLOCK = {
  unusualSpendEveryMs: 60_000 * 50,
  keyCacheTtlMs: 5_000 * 50,
  leaseMs: 60_000 * 50,
  checkpointEveryMs: 1_000 * 50,
};

/**
 * The warm-up is sent in this many rounds, each on connections of its own. The measured window
 * opens new connections, and the first few sets of connections a server sees still change the
 * shapes of its socket and stream objects: warmed on one set, the passthrough's window on an AMD
 * EPYC spent 35 % of its instructions recompiling Node's stream functions (30,000 warm-up requests
 * on one set; 0.0–2.5 % with 6,000 in ten rounds).
 */
const WARMUP_ROUNDS = 10;

/**
 * The warm-up round sent with instrumentation on, as a window's first requests are. Turning it on
 * stalls the server for a moment (valgrind translates all its code again), and what the first
 * stall set off (before leases were stretched, a renewal sent alone in it) deoptimized code at
 * the start of the first window, which then ran it unoptimized. Natively the first long pause does
 * such a thing once, early; rehearsed here, it happens with rounds to spare.
 */
const REHEARSAL_ROUND = WARMUP_ROUNDS - 4;

/**
 * A window whose share of JIT compilation is above this ran much of its code before V8 optimized
 * it (a function called once a request is optimized after a few thousand calls; a window can also
 * open right after something deoptimized): its count says little of the steady state. It is
 * measured again, up to MAX_WINDOWS in all, and the last one is kept (its share is in the table).
 */
export const STEADY_JIT_SHARE = 0.05;
export const MAX_WINDOWS = 3;

export interface InstructionOptions {
  upstreamUrl: string;
  paths: readonly BenchPath[];
  configurations: readonly InstructionConfiguration[];
  warmup: number;
  requests: number;
  /** Connections sending at once (each one request at a time). */
  connections: number;
  /** Which answers to measure on each path: JSON, streamed, or both. */
  answers: readonly ('json' | 'stream')[];
  /** Simulate the caches (SIMULATED_CACHES) and report their misses per request: about twice as slow. */
  cacheSimulation: boolean;
  /** Where the compiled bench scripts are. */
  buildDir: string;
  scratch: string;
  log: (text: string) => void;
}

export interface InstructionRow {
  path: BenchPath;
  stream: boolean;
  configuration: string;
  /** The stages a request ran (the gateway's compiled list), e.g. `record,authenticate,fit,police,call`. */
  stages?: string;
  /** Instructions per request, V8's compilers and old-generation GC left out. */
  perRequest: number;
  /** Shares of the window's instructions that V8's compilers and old-generation GC ran (left out of `perRequest`). */
  compileShare: number;
  gcShare: number;
  /** With `cacheSimulation`: per request, V8's compilers and old-generation GC left out. */
  cache?: { firstLevelMisses: number; lastLevelMisses: number; estimatedCycles: number };
}

export async function measureInstructions(options: InstructionOptions): Promise<InstructionRow[]> {
  const { paths, warmup, requests, connections, log } = options;
  const cells = paths.flatMap((path) => options.answers.map((answer) => ({ path, stream: answer === 'stream' })));
  const rows: InstructionRow[] = [];
  const run = `${process.pid}-${Date.now()}`;
  for (const configuration of options.configurations) {
    const startedAt = performance.now();
    const dir = join(options.scratch, `callgrind-${configuration.name.replace(/[^a-z0-9-]/gi, '_')}`);
    mkdirSync(dir, { recursive: true });
    const env = {
      BENCH_WINDOW_MS: String(STRETCHED_WINDOW_MS),
      BENCH_UNUSUAL_SPEND_EVERY_MS: String(STRETCHED_CLOCK.unusualSpendEveryMs),
      BENCH_KEY_CACHE_TTL_MS: String(STRETCHED_CLOCK.keyCacheTtlMs),
      BENCH_LEASE_MS: String(STRETCHED_CLOCK.leaseMs),
      BENCH_CHECKPOINT_EVERY_MS: String(STRETCHED_CLOCK.checkpointEveryMs),
      ...configuration.env?.(dir, run),
    };
    const server = await startUnderCallgrind(
      join(options.buildDir, configuration.script),
      [options.upstreamUrl],
      env,
      dir,
      options.cacheSimulation ? SIMULATED_CACHES : [],
    );
    try {
      if (configuration.storedKey && server.storedKey === undefined)
        throw new Error(`${configuration.name}: the server printed no stored key`);
      const planFor = (path: BenchPath, stream: boolean): RequestPlan => ({
        url: `${server.url}${endpointOf[path]}`,
        headers: { ...requestHeaders(path), ...(configuration.storedKey ? { authorization: `Bearer ${server.storedKey}` } : {}) },
        body: requestBody(path, stream),
        expected: expectedAnswerText[protocolOf[path]][stream ? 'stream' : 'json'],
      });
      log(`${configuration.name}: started under callgrind in ${seconds(startedAt)}; warming up (${warmup} requests per path and answer)`);
      for (let round = 0; round < WARMUP_ROUNDS; round += 1) {
        if (round === REHEARSAL_ROUND) await server.instrument(true);
        for (const { path, stream } of cells) await sendSequentially(planFor(path, stream), Math.ceil(warmup / WARMUP_ROUNDS), connections);
        if (round === REHEARSAL_ROUND) await server.instrument(false);
      }
      for (const { path, stream } of cells) {
        let row: InstructionRow | undefined;
        let perSecond = 0;
        for (let window = 1; window <= MAX_WINDOWS && (row === undefined || row.compileShare > STEADY_JIT_SHARE); window += 1) {
          if (row !== undefined)
            log(`  ${path} ${stream ? 'stream' : 'json'}: JIT compile ${percent(row.compileShare)} of the window, counted again`);
          await server.start();
          const sentAt = performance.now();
          await sendSequentially(planFor(path, stream), requests, connections);
          perSecond = requests / ((performance.now() - sentAt) / 1000);
          const counts = await server.stop(`${configuration.name}-${path}-${stream ? 'stream' : 'json'}-${window}`);
          row = {
            path,
            stream,
            configuration: configuration.name,
            ...(server.stages === undefined ? {} : { stages: server.stages }),
            perRequest: (counts.instructions - counts.inside.compile - counts.inside.gc) / requests,
            compileShare: counts.inside.compile / counts.instructions,
            gcShare: counts.inside.gc / counts.instructions,
            ...(options.cacheSimulation ? { cache: cachePerRequest(counts, requests) } : {}),
          };
        }
        if (row === undefined) throw new Error('no window was counted');
        rows.push(row);
        log(
          `  ${path.padEnd(9)} ${stream ? 'stream' : 'json  '} ${Math.round(row.perRequest).toLocaleString('en-US')} instructions/request, ${perSecond.toFixed(0)} requests/s (left out: JIT compile ${percent(row.compileShare)}, old-generation GC ${percent(row.gcShare)} of the window)${row.cache === undefined ? '' : `; ${Math.round(row.cache.lastLevelMisses)} last-level misses, ${Math.round(row.cache.estimatedCycles).toLocaleString('en-US')} estimated cycles/request`}`,
        );
      }
    } finally {
      await server.close();
    }
    log(`${configuration.name}: ${seconds(startedAt)}`);
  }
  return rows;
}

/** The window's cache misses and cycle estimate per request, what V8's compilers and old-generation GC ran left out. */
function cachePerRequest(counts: CallgrindCounts<'compile' | 'gc'>, requests: number): NonNullable<InstructionRow['cache']> {
  const own: Record<string, number> = {};
  for (const [name, count] of Object.entries(counts.events))
    own[name] = count - (counts.insideEvents.compile[name] ?? 0) - (counts.insideEvents.gc[name] ?? 0);
  const misses = cacheMisses(own);
  return {
    firstLevelMisses: misses.firstLevel / requests,
    lastLevelMisses: misses.lastLevel / requests,
    estimatedCycles: estimatedCycles(own) / requests,
  };
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;
