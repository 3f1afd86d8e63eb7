// `npm run bench`: Switchyard against a raw node:http passthrough, same run, same machine.
// Servers under test run on core 0; the load generator (wrk, or autocannon where wrk is not
// installed), the stream client and the mock upstream on core 1.
//   --profile      also profile the gateway (node --cpu-prof) under load and print the hottest functions
//   --profile-only only that
//   --profile-load json|stream|both  which load runs while profiling (default both)
//   --seconds N    length of each load measurement (default 4)
//   --warm-seconds N  load on each path (and a quarter of it in streams) that every measured server
//                  serves before it is measured, so its code is optimized as a busy server's is (default 20)
//   --rounds N     alternating passthrough/Switchyard rounds per path; medians are reported (default 5)
//   --paths a,b    chat, messages, responses, anthropic (default all four; see bench/bodies.ts)
//   --skip-stores  skip the stored keys + ledger rows (SQLite, PostgreSQL at DATABASE_URL, a 2 s stall)
//   --stores-only  only those rows
//   --skip-limits  skip the per-key limits rows (in memory, and in Redis at REDIS_URL)
//   --limits-only  only those rows
//   --skip-ops     skip the operations rows (request log and metrics on, against the same gateway without them)
//   --ops-only     only those rows
//   --skip-stages  skip the other stages' rows (traces, a request policy of every kind of rule, a user's stage,
//                  each against the same gateway without it)
//   --stages-only  only those rows
//   --skip-routing skip the routing rows (a model with two deployments and a fallback; cooldowns in
//                  memory, and in Redis at REDIS_URL)
//   --routing-only only those rows
//   --skip-targets skip the target rows (the gateway off, as the standalone server starts, and with
//                  Redis limits and a stored key, each loaded beside the passthrough, on every path)
//   --targets-only only those rows
//   --instructions instead of timings, count CPU instructions per request under callgrind (bench/instructions.ts)
//   --warmup N     with --instructions: warm-up requests per path and answer (default 500)
//   --requests N   with --instructions: measured requests per path and answer (default 300)
//   --configurations a,b  with --instructions: which of bench/instruction-configurations.ts (default all)
//   --connections N with --instructions: connections sending at once, one request at a time each (default 1)
//   --answers a,b  with --instructions: json, stream or both (default both)
//   --cache-sim    with --instructions: also simulate the caches (32 KB first levels, a 1 MB last level) and
//                  report their misses and an estimate of cycles per request (about twice as slow)
//   --allocation   instead of timings, bytes V8 allocates and promotes per request, each server alone
//                  under --trace-gc-nvp (bench/allocation.ts); --configurations as with --instructions
//                  (default: passthrough, json-floor, off, default, redis+keys), --rounds, --seconds
//   --compare      also measure Portkey and claude-code-router on the paths each serves (bench/peers.ts;
//                  installed from the npm registry into bench/.peers on first use)
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { endpointOf, expectedAnswerText, protocolOf, requestBody, requestHeaders, type BenchPath } from './bodies.js';
import { summariseProfiles } from './profile-summary.js';
import { installPeer, peers, type Peer } from './peers.js';
import { startDbRelay } from './db-relay.js';
import { NODE_FLAGS_UNDER_CALLGRIND, runningUnderCallgrind, SIMULATED_CACHES } from './callgrind-server.js';
import { instructionConfigurations, type InstructionConfiguration } from './instruction-configurations.js';
import { measureInstructions } from './instructions.js';
import { allocationRowOf, collectionTotalsOf, renderAllocationTable, type AllocationRound, type AllocationRow } from './allocation.js';
import { renderInstructionTable } from './instructions-report.js';
import { runFacts, writeResults } from './results-file.js';
import { Redis } from 'ioredis';
import {
  median,
  renderOpsTable,
  renderOtherStagesTable,
  renderLimitsTable,
  renderRoutingTable,
  renderTargetsTable,
  type RoutingMeasured,
  type TargetsMeasured,
  renderPeerTable,
  renderStoreTable,
  renderTable,
  type LimitsMeasured,
  type OpsMeasured,
  type OtherStagesMeasured,
  type StoreConfigurationMeasured,
  type StoreMeasured,
  type Floor,
  type Floors,
  type Measured,
  type PairedRatios,
  type PairResult,
  type PeerMeasured,
} from './report.js';

const { values } = parseArgs({
  options: {
    profile: { type: 'boolean', default: false },
    'profile-only': { type: 'boolean', default: false },
    'profile-load': { type: 'string', default: 'both' },
    compare: { type: 'boolean', default: false },
    seconds: { type: 'string', default: '4' },
    'warm-seconds': { type: 'string', default: '20' },
    rounds: { type: 'string', default: '5' },
    paths: { type: 'string', default: 'chat,messages,responses,anthropic' },
    'skip-stores': { type: 'boolean', default: false },
    'stores-only': { type: 'boolean', default: false },
    'skip-limits': { type: 'boolean', default: false },
    'limits-only': { type: 'boolean', default: false },
    'skip-ops': { type: 'boolean', default: false },
    'ops-only': { type: 'boolean', default: false },
    'skip-stages': { type: 'boolean', default: false },
    'stages-only': { type: 'boolean', default: false },
    'skip-routing': { type: 'boolean', default: false },
    'routing-only': { type: 'boolean', default: false },
    'skip-targets': { type: 'boolean', default: false },
    'targets-only': { type: 'boolean', default: false },
    instructions: { type: 'boolean', default: false },
    allocation: { type: 'boolean', default: false },
    'cache-sim': { type: 'boolean', default: false },
    warmup: { type: 'string', default: '500' },
    requests: { type: 'string', default: '300' },
    configurations: { type: 'string' },
    connections: { type: 'string', default: '1' },
    answers: { type: 'string', default: 'json,stream' },
  },
});
const seconds = Number(values.seconds);
const warmSeconds = Number(values['warm-seconds']);
const rounds = Number(values.rounds);
const paths = (values.paths ?? '').split(',') as BenchPath[];
const here = import.meta.dirname;
const benchDir = join(here, '..');
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
const scratch = mkdtempSync(join(tmpdir(), 'switchyard-bench-'));
const children = new Set<ChildProcess>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (text: string) => process.stderr.write(`${text}\n`);
const debug = (text: string) => process.env.BENCH_DEBUG && log(`    [${new Date().toISOString().slice(11, 23)}] ${text}`);

interface Started {
  child: ChildProcess;
  pid: number;
  url: string;
  /** Request headers this server needs besides the path's own, and the model its bodies name. */
  headers?: Record<string, string>;
  model?: string;
  /** The stages a gateway's generation requests run, as it printed them; undefined for the passthrough and the floors. */
  stages?: string[];
  /** Everything it has printed so far (a gateway server prints its counts as it stops). */
  printed?: () => string;
}

/** A free loopback port (for programs that take a port rather than printing theirs). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Starts a program pinned to `core` that listens on `port`; resolves once the port answers. */
async function startProgram(core: number, script: string, args: string[], port: number, env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn('taskset', ['-c', String(core), process.execPath, script, ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...env },
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    const up = await fetch(url, { method: 'HEAD' }).then(
      () => true,
      () => false,
    );
    if (up && child.pid !== undefined) return { child, pid: child.pid, url };
    await sleep(100);
  }
  throw new Error(`${script} did not listen on ${port}`);
}

/** Stage lists already printed (each configuration's requests run one). */
const stagesSaid = new Set<string>();

/** A server's `BENCH_*` settings, for the stages line: `BENCH_OPS=on BENCH_STORE=sqlite`, or `defaults`. */
function describeEnv(env: NodeJS.ProcessEnv): string {
  const set = Object.entries(env).filter(
    ([name]) =>
      name.startsWith('BENCH_') &&
      !name.endsWith('_FILE') &&
      !name.endsWith('DATABASE') &&
      !name.endsWith('PREFIX') &&
      !name.endsWith('OUTBOX'),
  );
  return set.length === 0 ? 'every feature off' : set.map(([name, value]) => `${name}=${value}`).join(' ');
}

/** Starts a node script pinned to `core` (unless undefined), resolves once it prints its port. */
function startServer(
  core: number | undefined,
  script: string,
  args: string[],
  nodeFlags: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<Started> {
  const command = [process.execPath, ...nodeFlags, join(here, script), ...args];
  const child = spawn(
    core === undefined ? command[0]! : 'taskset',
    core === undefined ? command.slice(1) : ['-c', String(core), ...command],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    },
  );
  children.add(child);
  child.on('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    let printed = '';
    child.stdout?.on('data', (text: Buffer) => {
      printed += text.toString();
      const match = /listening (\d+)/.exec(printed);
      // A server with stored keys prints the key the load must send.
      const key = /key (sk-sy-\S+)/.exec(printed)?.[1];
      if (match && child.pid !== undefined) {
        // Which stages the gateway compiled for this configuration: said once per distinct list, above its rows.
        const stages = /stages (\S+)/.exec(printed)?.[1];
        if (stages !== undefined && !stagesSaid.has(stages)) {
          stagesSaid.add(stages);
          log(`  stages run (${describeEnv(env)}): ${stages.split(',').join(' → ')}`);
        }
        resolve({
          child,
          pid: child.pid,
          url: `http://127.0.0.1:${match[1]}`,
          ...(key ? { headers: { authorization: `Bearer ${key}` } } : {}),
          ...(stages === undefined ? {} : { stages: stages.split(',') }),
          printed: () => printed,
        });
      }
    });
  });
}

/** Stops a server; returns what it printed, its last words included. */
async function stopServer(server: Started): Promise<string> {
  debug(`stopping ${server.pid}`);
  // 'close': exited, and what it printed last has been read.
  const closed = new Promise((resolve) => server.child.once('close', resolve));
  server.child.kill('SIGTERM');
  await closed;
  return server.printed?.() ?? '';
}

/** User + system CPU of a process so far, in microseconds (all its threads, GC included). */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3, utime field 14, stime field 15 (1-based over the whole line).
  return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1e6;
}

/** Busy time of core 0 so far, in microseconds (everything on it, not only the server). */
function core0BusyMicros(): number {
  const line =
    readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .find((text) => text.startsWith('cpu0 ')) ?? '';
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line.split(/\s+/).slice(1).map(Number);
  return ((user + nice + system + irq + softirq + steal) / ticksPerSecond) * 1e6;
}

/** The largest share of core 0 that other processes took during a measurement (they skew the numbers). */
let worstForeignShare = 0;

function rssKb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1]);
}

/** Runs a load process on core 1 and returns its `BENCH_RESULT` JSON. */
function runLoad<T>(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<T> {
  const child = spawn('taskset', ['-c', '1', command, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  children.add(child);
  let output = '';
  child.stdout?.on('data', (text: Buffer) => (output += text.toString()));
  return new Promise((resolve, reject) => {
    // 'close', not 'exit': a process may have exited before all it wrote to its stdout was read,
    // and a loaded machine once left the result line unread (a run failed with empty output).
    child.on('close', (code) => {
      children.delete(child);
      const line = output.split('\n').find((text) => text.startsWith('BENCH_RESULT '));
      if (code !== 0 || line === undefined) reject(new Error(`${command} ${args.join(' ')} failed (${code}): ${output}`));
      else resolve(JSON.parse(line.slice('BENCH_RESULT '.length)) as T);
    });
  });
}

interface WrkResult {
  requests: number;
  durationUs: number;
  p50Us: number;
  p99Us: number;
  maxUs: number;
  errors: Record<string, number>;
}

/** The body a server gets on a path (with its own model id where it needs one). */
function bodyFor(server: Started, path: BenchPath, stream: boolean): string {
  const body = requestBody(path, stream);
  return server.model === undefined ? body : JSON.stringify({ ...(JSON.parse(body) as object), model: server.model });
}

function headersFor(server: Started, path: BenchPath): Record<string, string> {
  return { ...requestHeaders(path), ...server.headers };
}

function loadFiles(server: Started, path: BenchPath, stream: boolean): { BENCH_BODY: string; BENCH_HEADERS: string } {
  const body = join(scratch, `${server.pid}-${path}-${stream ? 'stream' : 'json'}.json`);
  const headers = join(scratch, `${server.pid}-${path}.headers`);
  writeFileSync(body, bodyFor(server, path, stream));
  writeFileSync(
    headers,
    Object.entries(headersFor(server, path))
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n'),
  );
  return { BENCH_BODY: body, BENCH_HEADERS: headers };
}

/** wrk when it is installed: it is C and leaves the CPU to the servers. Otherwise autocannon (Node). */
const hasWrk = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v wrk'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** The command line that loads `url` for `duration` seconds over `connections` connections. */
function loadCommand(url: string, connections: number, duration: number): [string, string[]] {
  if (hasWrk) return ['wrk', ['-t1', `-c${connections}`, `-d${duration}s`, '--timeout', '10s', '-s', join(benchDir, 'wrk/post.lua'), url]];
  return [process.execPath, [join(here, 'autocannon-load.js'), url, String(connections), String(duration)]];
}

/** The load generator against `url` for `duration` seconds, with the server's CPU read around it. */
async function wrk(server: Started, path: BenchPath, stream: boolean, connections: number, duration: number) {
  const before = cpuMicros(server.pid);
  const busyBefore = core0BusyMicros();
  const result = await runLoad<WrkResult>(
    ...loadCommand(`${server.url}${endpointOf[path]}`, connections, duration),
    loadFiles(server, path, stream),
  );
  const cpu = cpuMicros(server.pid) - before;
  noteForeignShare(core0BusyMicros() - busyBefore - cpu, result.durationUs, duration);
  return summariseLoad(result, cpu);
}

/**
 * Two non-streaming loads at once, one on each server (both servers share core 0): whatever the
 * machine's speed does during the run, it does to both, so the ratio of their CPU per request holds.
 */
async function wrkSideBySide(first: Started, second: Started, path: BenchPath, connections: number, duration: number) {
  const servers = [first, second] as const;
  const before = servers.map((server) => cpuMicros(server.pid));
  const busyBefore = core0BusyMicros();
  const load = (server: Started) =>
    runLoad<WrkResult>(...loadCommand(`${server.url}${endpointOf[path]}`, connections, duration), loadFiles(server, path, false));
  const results = await Promise.all([load(first), load(second)]);
  const cpus = servers.map((server, index) => cpuMicros(server.pid) - before[index]!);
  noteForeignShare(core0BusyMicros() - busyBefore - cpus[0]! - cpus[1]!, Math.max(results[0].durationUs, results[1].durationUs), duration);
  return [summariseLoad(results[0], cpus[0]!), summariseLoad(results[1], cpus[1]!)] as const;
}

/**
 * The same two servers loaded one at a time, each after one unmeasured second (which goes first
 * changes with the round): what each costs with core 0 to itself, as the main table measures. Two
 * servers loaded at once share the core's own cache as well as its time, and a process whose code
 * and data fill more of that cache loses more to the other (docs/performance.md#alone-and-at-once).
 */
async function wrkAlone(baseline: Started, server: Started, path: BenchPath, round: number) {
  const measure = async (each: Started) => {
    await wrk(each, path, false, 64, 1);
    return wrk(each, path, false, 64, seconds);
  };
  if (round % 2 === 0) {
    const base = await measure(baseline);
    return { own: await measure(server), base };
  }
  const own = await measure(server);
  return { own, base: await measure(baseline) };
}

/** Warns when processes other than the measured servers took a share of core 0 during a run. */
function noteForeignShare(foreignMicros: number, durationUs: number, duration: number): void {
  const foreignShare = Math.max(0, foreignMicros) / durationUs;
  if (duration >= seconds) worstForeignShare = Math.max(worstForeignShare, foreignShare);
  if (foreignShare > 0.1) log(`  ! other processes took ${(foreignShare * 100).toFixed(0)}% of core 0 during this run`);
}

function summariseLoad(result: WrkResult, cpu: number) {
  const failed = Object.values(result.errors).reduce((sum, count) => sum + count, 0);
  if (failed > 0) log(`  ! ${failed} errors: ${JSON.stringify(result.errors)}`);
  return {
    perSecond: result.requests / (result.durationUs / 1e6),
    requests: result.requests,
    p50Ms: result.p50Us / 1000,
    p99Ms: result.p99Us / 1000,
    maxMs: result.maxUs / 1000,
    cpuPerRequestUs: cpu / result.requests,
    errors: failed,
  };
}

function streamClient<T>(mode: string, server: Started, path: BenchPath, ...rest: number[]): Promise<T> {
  return runLoad<T>(process.execPath, [join(here, 'stream-client.js'), mode, server.url, path, ...rest.map(String)]);
}

async function setUpstreamMode(upstream: Started, mode: { chunks?: number; delayMs?: number; hold?: boolean }) {
  const answer = await fetch(`${upstream.url}/__bench/mode`, { method: 'POST', body: JSON.stringify(mode) });
  if (!answer.ok) throw new Error('could not set the upstream mode');
}

/** One request of each kind, checked, so a misconfigured target fails loudly instead of measuring errors. */
async function checkTarget(server: Started, path: BenchPath, streams = true): Promise<void> {
  // The mock upstream answers in the protocol of the path it is called on, so both servers answer in the client's.
  for (const stream of streams ? [false, true] : [false]) {
    const answer = await fetch(`${server.url}${endpointOf[path]}`, {
      method: 'POST',
      headers: headersFor(server, path),
      body: bodyFor(server, path, stream),
    });
    const text = await answer.text();
    const expected = expectedAnswerText[protocolOf[path]][stream ? 'stream' : 'json'];
    if (answer.status !== 200 || !text.includes(expected))
      throw new Error(`${server.url} ${path} (stream: ${stream}) answered ${answer.status}: ${text.slice(0, 300)}`);
  }
}

const STREAM_CHUNKS = 50;
const PACED_STREAMS = 400;
const PACED_CONCURRENCY = 100;
const PACED_DELAY_MS = 20;
const OPEN_STREAMS = 2000;

type Wrk = Awaited<ReturnType<typeof wrk>>;

/** One round of the wrk measurements on one server: concurrency 1, concurrency 64, 50-chunk streams. */
async function loadRound(name: string, server: Started, path: BenchPath): Promise<{ c1: Wrk; c64: Wrk; streams: Wrk }> {
  const c1 = await wrk(server, path, false, 1, seconds);
  const c64 = await wrk(server, path, false, 64, seconds);
  const streams = await wrk(server, path, true, 64, seconds);
  log(
    `  ${name.padEnd(11)} c1 p50 ${c1.p50Ms.toFixed(3)} ms · c64 ${c64.perSecond.toFixed(0)} req/s, ${c64.cpuPerRequestUs.toFixed(0)} µs CPU/req · ` +
      `${streams.perSecond.toFixed(0)} streams/s, ${streams.cpuPerRequestUs.toFixed(0)} µs CPU/stream`,
  );
  return { c1, c64, streams };
}

/**
 * Time to first byte of both servers in one client run, a stream to each in turn: a slow spell of
 * the machine (or the other server's garbage) then falls on both, where two runs one after the other
 * measured it on one (rounds of one run differed by 0.9 ms).
 */
async function ttfbRound(servers: readonly Started[], upstream: Started, path: BenchPath): Promise<number[]> {
  await setUpstreamMode(upstream, { delayMs: 0 });
  const base = servers.map((server) => server.url).join(',');
  const ttfb = await runLoad<{ p50Ms: number[] }>(process.execPath, [join(here, 'stream-client.js'), 'ttfb', base, path, '300']);
  return ttfb.p50Ms;
}

/** CPU per event of paced streams (PACED_DELAY_MS apart), read around a run at PACED_CONCURRENCY. */
async function pacedRound(
  name: string,
  server: Started,
  upstream: Started,
  path: BenchPath,
  ttfbP50Ms: number,
): Promise<{ ttfbP50Ms: number; cpuPerEventUs: number }> {
  await setUpstreamMode(upstream, { delayMs: PACED_DELAY_MS });
  const pacedBefore = cpuMicros(server.pid);
  await streamClient('paced', server, path, PACED_STREAMS, PACED_CONCURRENCY);
  const cpuPerEventUs = (cpuMicros(server.pid) - pacedBefore) / (PACED_STREAMS * STREAM_CHUNKS);
  await setUpstreamMode(upstream, { delayMs: 0 });
  log(`  ${name.padEnd(11)} ttfb p50 ${ttfbP50Ms.toFixed(3)} ms · ${cpuPerEventUs.toFixed(1)} µs CPU/paced event`);
  return { ttfbP50Ms, cpuPerEventUs };
}

/** Memory per stream with OPEN_STREAMS streams held open. */
async function openStreams(
  name: string,
  server: Started,
  upstream: Started,
  path: BenchPath,
): Promise<{ kbPerStream: number; flowing: number }> {
  await setUpstreamMode(upstream, { delayMs: 0, hold: true });
  await sleep(500);
  const rssBefore = rssKb(server.pid);
  const holder = spawn(
    'taskset',
    ['-c', '1', process.execPath, join(here, 'stream-client.js'), 'open', server.url, path, String(OPEN_STREAMS)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.add(holder);
  const holderExit = new Promise((resolve) => holder.once('exit', resolve));
  const flowing = await new Promise<number>((resolve, reject) => {
    holder.stdout.on('data', (text: Buffer) => {
      const match = /BENCH_RESULT \{"open":(\d+)\}/.exec(text.toString());
      if (match) resolve(Number(match[1]));
    });
    holder.once('exit', (code) => reject(new Error(`stream holder exited with ${code}`)));
  });
  await sleep(500);
  const kbPerStream = (rssKb(server.pid) - rssBefore) / OPEN_STREAMS;
  log(`  ${name.padEnd(11)} ${flowing} of ${OPEN_STREAMS} streams flowing; ${kbPerStream.toFixed(1)} KB/stream`);
  debug('closing the open streams');
  holder.kill('SIGTERM');
  await holderExit;
  children.delete(holder);
  await setUpstreamMode(upstream, { hold: false });
  await sleep(1000); // let the server close the aborted streams
  return { kbPerStream, flowing };
}

/** Servers already warmed up (a server measured in two sections is warmed once). */
const warmed = new WeakSet<Started>();

/**
 * Loads each server on each path, JSON and streams, before it is measured. V8 keeps optimizing a
 * gateway's code for tens of thousands of requests (its compiler threads busy, its main thread on
 * slower code meanwhile): after 2 s of load the gateway with every feature off measured 1.27× the
 * passthrough's CPU per request on chat, after 24 s 1.13×, side by side, while the passthrough,
 * mostly Node's own code, is warm within seconds. A server in production has long since served
 * that many, so a number taken before it is the JIT's, not the gateway's. Each server serves every
 * path, as in production (code shared by the paths sees all their shapes).
 */
async function warmUp(servers: readonly Started[], on: readonly BenchPath[]): Promise<void> {
  const cold = servers.filter((server) => !warmed.has(server));
  if (cold.length === 0 || warmSeconds <= 0) return;
  log(
    `warming up ${cold.length} server(s): ${warmSeconds} s of load on each of ${on.join(', ')}, and ${Math.max(1, Math.round(warmSeconds / 4))} s of streams`,
  );
  for (const server of cold) {
    for (const path of on) {
      await checkTarget(server, path);
      await wrk(server, path, false, 64, warmSeconds);
      await wrk(server, path, true, 64, Math.max(1, Math.round(warmSeconds / 4)));
    }
    warmed.add(server);
  }
}

/**
 * Measures the passthrough and Switchyard on one path in alternating rounds, so that a slow spell of
 * this shared machine falls on both rather than on one; each metric is the median of its rounds.
 */
async function measurePair(servers: { passthrough: Started; switchyard: Started }, upstream: Started, path: BenchPath) {
  log(`${path}: ${rounds} alternating rounds`);
  await setUpstreamMode(upstream, { chunks: STREAM_CHUNKS, delayMs: 0, hold: false });
  const entries = Object.entries(servers) as ['passthrough' | 'switchyard', Started][];
  for (const [, server] of entries) {
    await checkTarget(server, path);
    await wrk(server, path, false, 64, 2); // warm-up: JIT, connection pools
    await wrk(server, path, true, 64, 1);
  }
  const loads = { passthrough: [] as Awaited<ReturnType<typeof loadRound>>[], switchyard: [] as Awaited<ReturnType<typeof loadRound>>[] };
  const streams = {
    passthrough: [] as Awaited<ReturnType<typeof pacedRound>>[],
    switchyard: [] as Awaited<ReturnType<typeof pacedRound>>[],
  };
  for (let round = 0; round < rounds; round++) for (const [name, server] of entries) loads[name].push(await loadRound(name, server, path));
  for (let round = 0; round < rounds; round++) {
    const ttfb = await ttfbRound(
      entries.map(([, server]) => server),
      upstream,
      path,
    );
    for (const [index, [name, server]] of entries.entries())
      streams[name].push(await pacedRound(name, server, upstream, path, ttfb[index]!));
  }
  // Each round's Switchyard figure over the passthrough's from the same round: a slow spell moves both.
  const paired = (get: (round: Awaited<ReturnType<typeof loadRound>>) => number) =>
    loads.switchyard.map((round, index) => get(round) / get(loads.passthrough[index]!));
  const pairedRatios: PairedRatios = {
    cpuPerRequest: paired((r) => r.c64.cpuPerRequestUs),
    c64PerSecond: paired((r) => r.c64.perSecond),
    cpuPerStream: paired((r) => r.streams.cpuPerRequestUs),
    c64P99: paired((r) => r.c64.p99Ms),
  };
  const result = {} as Record<'passthrough' | 'switchyard', Measured>;
  for (const [name, server] of entries) {
    const open = await openStreams(name, server, upstream, path);
    const load = loads[name];
    const pick = (get: (round: (typeof load)[number]) => number) => median(load.map(get));
    result[name] = {
      c1: { perSecond: pick((r) => r.c1.perSecond), p50Ms: pick((r) => r.c1.p50Ms), p99Ms: pick((r) => r.c1.p99Ms) },
      c64: { perSecond: pick((r) => r.c64.perSecond), p50Ms: pick((r) => r.c64.p50Ms), p99Ms: pick((r) => r.c64.p99Ms) },
      cpuPerRequestUs: pick((r) => r.c64.cpuPerRequestUs),
      streamsPerSecond: pick((r) => r.streams.perSecond),
      cpuPerStreamUs: pick((r) => r.streams.cpuPerRequestUs),
      ttfbP50Ms: median(streams[name].map((r) => r.ttfbP50Ms)),
      cpuPerEventUs: median(streams[name].map((r) => r.cpuPerEventUs)),
      kbPerOpenStream: open.kbPerStream,
      openStreams: open.flowing,
      errors: load.reduce((sum, r) => sum + r.c1.errors + r.c64.errors + r.streams.errors, 0),
    };
  }
  return { ...result, pairedRatios };
}

/** A floor's non-streaming numbers (the floors answer JSON only). */
async function measureFloor(server: Started, path: BenchPath, name: string): Promise<Floor> {
  log(`${name} · ${path}`);
  await wrk(server, path, false, 64, 2);
  const c1 = await wrk(server, path, false, 1, seconds);
  const c64 = await wrk(server, path, false, 64, seconds);
  log(`  c1 p50 ${c1.p50Ms.toFixed(3)} ms; c64 ${c64.perSecond.toFixed(0)} req/s, ${c64.cpuPerRequestUs.toFixed(0)} µs CPU/req`);
  return { c1P50Ms: c1.p50Ms, c64PerSecond: c64.perSecond, cpuPerRequestUs: c64.cpuPerRequestUs };
}

/** Starts a peer gateway for `path`, pointed at the mock upstream. */
async function startPeer(peer: Peer, upstream: Started, path: BenchPath): Promise<Started> {
  const entry = installPeer(peer, join(benchDir, '.peers'));
  const port = await freePort();
  const home = mkdtempSync(join(scratch, 'home-'));
  const launch = peer.launch(upstream.url, port, path, home);
  const started = await startProgram(0, entry, launch.args, port, launch.env);
  return { ...started, headers: launch.headers, model: launch.model };
}

/**
 * The passthrough, Switchyard and each peer that serves `path`, in alternating rounds of the two
 * concurrency-64 loads (JSON and 50-chunk streams); medians of the rounds, and each round's ratio
 * to the passthrough's.
 */
async function measurePeers(path: BenchPath, upstream: Started, passthrough: Started, switchyard: Started): Promise<PeerMeasured[]> {
  const serving = peers.filter((peer) => peer.paths.includes(path));
  if (serving.length === 0) return [];
  log(`${path}: side by side with ${serving.map((peer) => peer.name).join(', ')}`);
  const targets: { name: string; server: Started; streams: boolean }[] = [
    { name: 'passthrough', server: passthrough, streams: true },
    { name: 'Switchyard', server: switchyard, streams: true },
  ];
  for (const peer of serving) targets.push({ name: peer.name, server: await startPeer(peer, upstream, path), streams: peer.streams });
  await setUpstreamMode(upstream, { chunks: STREAM_CHUNKS, delayMs: 0, hold: false });
  for (const { server, streams } of targets) {
    await checkTarget(server, path, streams);
    await wrk(server, path, false, 64, 2);
    if (streams) await wrk(server, path, true, 64, 1);
  }
  const runs = new Map(targets.map(({ name }) => [name, [] as { json: Wrk; stream?: Wrk }[]]));
  const crashed = new Set<string>();
  for (let round = 0; round < rounds; round++) {
    for (const { name, server, streams } of targets) {
      if (crashed.has(name)) continue;
      let json: Wrk, stream: Wrk | undefined;
      try {
        json = await wrk(server, path, false, 64, seconds);
        if (streams) stream = await wrk(server, path, true, 64, seconds);
      } catch (error) {
        if (server.child.exitCode === null) throw error;
        log(`  ! ${name} exited during the load (${server.child.exitCode})`);
        crashed.add(name);
        continue;
      }
      runs.get(name)!.push({ json, stream });
      log(
        `  ${name.padEnd(18)} ${json.perSecond.toFixed(0)} req/s, ${json.cpuPerRequestUs.toFixed(0)} µs CPU/req, p99 ${json.p99Ms.toFixed(1)} ms · ${stream?.cpuPerRequestUs.toFixed(0) ?? '-'} µs CPU/stream`,
      );
    }
  }
  for (const { name, server } of targets.slice(2)) {
    if (crashed.has(name)) continue;
    log(`  ${name} RSS ${(rssKb(server.pid) / 1024).toFixed(0)} MB`);
    await stopServer(server);
  }
  const pipe = runs.get('passthrough')!;
  return targets.map(({ name }) => {
    const own = runs.get(name)!;
    type Run = { json: Wrk; stream?: Wrk };
    const pick = (get: (run: Run) => number) => median(own.map(get));
    const ratio = (get: (run: Run) => number) => median(own.map((run, index) => get(run) / get(pipe[index]!)));
    return {
      name,
      perSecond: pick((run) => run.json.perSecond),
      p99Ms: pick((run) => run.json.p99Ms),
      cpuPerRequestUs: pick((run) => run.json.cpuPerRequestUs),
      cpuPerStreamUs: pick((run) => run.stream?.cpuPerRequestUs ?? NaN),
      ratios: {
        perSecond: ratio((run) => run.json.perSecond),
        p99: ratio((run) => run.json.p99Ms),
        cpuPerRequest: ratio((run) => run.json.cpuPerRequestUs),
        cpuPerStream: ratio((run) => run.stream?.cpuPerRequestUs ?? NaN),
      },
      errors: own.reduce((sum, run) => sum + run.json.errors + (run.stream?.errors ?? 0), 0),
      crashed: crashed.has(name),
    };
  });
}

/**
 * Stored keys and the usage ledger on the chat path: the same gateway with a stored key and the
 * ledger on SQLite, and on PostgreSQL (through a relay that can stall it), against the gateway with
 * neither, in alternating rounds; then a 2 s stall of PostgreSQL in the middle of a concurrency-1
 * load, against the same load without one.
 */
async function measureStores(upstream: Started, baseline: Started): Promise<StoreMeasured> {
  const path: BenchPath = 'chat';
  const target = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  const relay = await startDbRelay(target.hostname, Number(target.port || 5432));
  const viaRelay = new URL(target);
  viaRelay.port = String(relay.port);
  const schema = `bench_${process.pid}_${Date.now()}`;
  const sqlite = await startServer(0, 'gateway-server.js', [upstream.url], [], {
    BENCH_STORE: 'sqlite',
    BENCH_DATABASE: join(scratch, 'bench.db'),
  });
  const postgres = await startServer(0, 'gateway-server.js', [upstream.url], [], {
    BENCH_STORE: 'postgres',
    BENCH_DATABASE: viaRelay.toString(),
    BENCH_SCHEMA: schema,
    BENCH_OUTBOX: join(scratch, 'bench-postgres.outbox'),
  });
  const measured = await againstBaseline(baseline, { sqlite, postgres }, path, 'stored keys + ledger');
  // The stall: concurrency 1 for 3 × STALL_MS, PostgreSQL held for the middle STALL_MS.
  const STALL_MS = 2_000;
  log(`  PostgreSQL stalled ${STALL_MS / 1000} s in a ${(3 * STALL_MS) / 1000} s concurrency-1 load`);
  const calm = await wrk(postgres, path, false, 1, (3 * STALL_MS) / 1000);
  const loading = wrk(postgres, path, false, 1, (3 * STALL_MS) / 1000);
  await sleep(STALL_MS);
  await relay.stall(STALL_MS);
  const stalled = await loading;
  log(`    calm    p50 ${calm.p50Ms.toFixed(3)} ms, p99 ${calm.p99Ms.toFixed(3)} ms, max ${calm.maxMs.toFixed(1)} ms`);
  log(
    `    stalled p50 ${stalled.p50Ms.toFixed(3)} ms, p99 ${stalled.p99Ms.toFixed(3)} ms, max ${stalled.maxMs.toFixed(1)} ms, ${stalled.errors} errors`,
  );
  await stopServer(sqlite);
  await stopServer(postgres);
  await relay.close();
  return {
    sqlite: measured.configurations.sqlite!,
    postgres: measured.configurations.postgres!,
    baseline: measured.baseline,
    stall: {
      calm: { p50Ms: calm.p50Ms, p99Ms: calm.p99Ms, maxMs: calm.maxMs },
      stalled: { p50Ms: stalled.p50Ms, p99Ms: stalled.p99Ms, maxMs: stalled.maxMs, errors: stalled.errors },
    },
  };
}

/**
 * Configurations against the same gateway without what they add, in alternating rounds on one path:
 * per round, p50 at concurrency 1 (each server alone), then CPU per request and req/s at concurrency
 * 64, each configuration's load run at the same time as a baseline load; ratios and differences are
 * medians of each round's pair.
 */
async function againstBaseline(
  baseline: Started,
  configurations: Record<string, Started>,
  path: BenchPath,
  what: string,
  /** Also load each configuration and the baseline one at a time after each pair (the target rows). */
  alone = false,
): Promise<{ baseline: { cpuPerRequestUs: number; p50Ms: number }; configurations: Record<string, StoreConfigurationMeasured> }> {
  const servers: Record<string, Started> = { baseline, ...configurations };
  log(`${what} (${path}): ${rounds} alternating rounds`);
  await warmUp(Object.values(servers), [path]);
  for (const server of Object.values(servers)) {
    await checkTarget(server, path);
    await wrk(server, path, false, 64, 2);
  }
  // Each configuration's load at concurrency 64 runs at the same time as one of the baseline's,
  // both servers on core 0: this machine's speed drifts within seconds (runs one after the other
  // gave ratios ±0.3 apart), and a ratio is only as good as the pair it is taken from.
  const c1Runs: Record<string, Wrk[]> = Object.fromEntries(Object.keys(servers).map((name) => [name, []]));
  const pairs: Record<string, Array<{ own: Wrk; base: Wrk }>> = Object.fromEntries(Object.keys(configurations).map((name) => [name, []]));
  const baselineC64: Wrk[] = [];
  const alonePairs: Record<string, Array<{ own: Wrk; base: Wrk }>> = Object.fromEntries(
    Object.keys(configurations).map((name) => [name, []]),
  );
  for (let round = 0; round < rounds; round++) {
    for (const [name, server] of Object.entries(servers)) c1Runs[name]!.push(await wrk(server, path, false, 1, seconds));
    for (const [name, server] of Object.entries(configurations)) {
      // Both servers sat idle while the other pairs ran, and V8 shrinks an idle process's young
      // generation: in its first second back under load the gateway scavenged twice as often and
      // took 1.27-2.09x (median 1.34x) its CPU per request of the seconds after, the passthrough
      // 1.09-1.66x (median 1.14x). After one unmeasured second at the same load, the gateway's two
      // runs of a round measured alike (docs/performance.md#the-feature-rows).
      await wrkSideBySide(baseline, server, path, 64, 1);
      // Which load starts first changes from round to round: the first one measured ~2 % dearer.
      const [base, own] =
        round % 2 === 0
          ? await wrkSideBySide(baseline, server, path, 64, seconds)
          : (await wrkSideBySide(server, baseline, path, 64, seconds)).toReversed();
      pairs[name]!.push({ own, base });
      baselineC64.push(base);
      log(
        `  ${name.padEnd(9)} c1 p50 ${c1Runs[name]!.at(-1)!.p50Ms.toFixed(3)} ms · c64 ${own.perSecond.toFixed(0)} req/s, ${own.cpuPerRequestUs.toFixed(0)} µs CPU/req (baseline beside it: ${base.cpuPerRequestUs.toFixed(0)} µs)`,
      );
      if (alone) {
        const byItself = await wrkAlone(baseline, server, path, round);
        alonePairs[name]!.push(byItself);
        log(
          `  ${name.padEnd(9)} alone: ${byItself.own.cpuPerRequestUs.toFixed(0)} µs CPU/req (baseline alone: ${byItself.base.cpuPerRequestUs.toFixed(0)} µs)`,
        );
      }
    }
  }
  const baseC1 = c1Runs.baseline!;
  const measured: Record<string, StoreConfigurationMeasured> = {};
  for (const name of Object.keys(configurations)) {
    const own = pairs[name]!;
    const ratios = (of: Array<{ own: Wrk; base: Wrk }>) => of.map((pair) => pair.own.cpuPerRequestUs / pair.base.cpuPerRequestUs);
    const byItself = alonePairs[name]!;
    measured[name] = {
      cpuPerRequestRatio: median(ratios(own)),
      cpuPerRequestRatios: ratios(own),
      ...(configurations[name]!.stages === undefined ? {} : { stages: configurations[name]!.stages }),
      ...(byItself.length === 0
        ? {}
        : {
            alone: {
              cpuPerRequestRatio: median(ratios(byItself)),
              cpuPerRequestRatios: ratios(byItself),
              cpuPerRequestUs: median(byItself.map((pair) => pair.own.cpuPerRequestUs)),
              baselineCpuPerRequestUs: median(byItself.map((pair) => pair.base.cpuPerRequestUs)),
            },
          }),
      perSecondRatio: median(own.map((pair) => pair.own.perSecond / pair.base.perSecond)),
      p50AddedMs: median(c1Runs[name]!.map((run, index) => run.p50Ms - baseC1[index]!.p50Ms)),
      cpuPerRequestUs: median(own.map((pair) => pair.own.cpuPerRequestUs)),
      p50Ms: median(c1Runs[name]!.map((run) => run.p50Ms)),
    };
  }
  return {
    baseline: {
      cpuPerRequestUs: median(baselineC64.map((run) => run.cpuPerRequestUs)),
      p50Ms: median(baseC1.map((run) => run.p50Ms)),
      ...(baseline.stages === undefined ? {} : { stages: baseline.stages }),
    },
    configurations: measured,
  };
}

/** Starts one configuration of bench/instruction-configurations.ts on core 0, `dir` its scratch directory. */
async function startConfiguration(
  configuration: InstructionConfiguration,
  upstream: Started,
  dir: string,
  run: string,
  nodeFlags: string[] = [],
): Promise<Started> {
  const started = await startServer(0, configuration.script, [upstream.url], nodeFlags, configuration.env?.(dir, run) ?? {});
  // A server with stored keys prints one; only a configuration that names a stored key sends it.
  const { headers: _storedKey, ...withApiKey } = started;
  return configuration.storedKey === true ? started : withApiKey;
}

/** The three configurations, each judged against the passthrough by its own CPU-per-request target. */
const TARGET_CONFIGURATIONS = [
  { name: 'off', cpuRatio: 1.1 },
  { name: 'default', cpuRatio: 1.3 },
  { name: 'redis+keys', cpuRatio: 1.4 },
] as const;

/**
 * The gateway with every feature off, as the standalone server starts, and with Redis limits and a
 * stored key (the servers of bench/instruction-configurations.ts, run natively), each loaded at the
 * same time as the passthrough, on every path: the timed counterpart of the instruction table, by
 * the method the feature rows use. A second passthrough beside the first shows the method's own error.
 */
async function measureTargets(upstream: Started, passthrough: Started, off: Started): Promise<TargetsMeasured> {
  const run = `${process.pid}:${Date.now()}`;
  const servers: Record<string, Started> = { 'passthrough again': await startServer(0, 'passthrough.js', [upstream.url]), off };
  for (const { name } of TARGET_CONFIGURATIONS.slice(1)) {
    const configuration = instructionConfigurations.find((candidate) => candidate.name === name)!;
    const dir = join(scratch, `targets-${name.replace(/\W/g, '_')}`);
    mkdirSync(dir, { recursive: true });
    servers[name] = await startConfiguration(configuration, upstream, dir, run);
  }
  await setUpstreamMode(upstream, { chunks: STREAM_CHUNKS, delayMs: 0, hold: false });
  await warmUp([passthrough, ...Object.values(servers)], paths);
  const measured: TargetsMeasured['paths'] = {};
  for (const path of paths) {
    const { baseline, configurations } = await againstBaseline(passthrough, servers, path, `the targets against the passthrough`, true);
    measured[path] = { baseline, configurations };
  }
  for (const [name, server] of Object.entries(servers)) if (name !== 'off') await stopServer(server);
  return { paths: measured, targets: Object.fromEntries(TARGET_CONFIGURATIONS.map(({ name, cpuRatio }) => [name, cpuRatio])) };
}

/** Per-key limits (requests, tokens, concurrency; none reached) in memory and in Redis, against the gateway without limits. */
async function measureLimits(upstream: Started, baseline: Started): Promise<LimitsMeasured> {
  const path: BenchPath = 'chat';
  const memory = await startServer(0, 'gateway-server.js', [upstream.url], [], { BENCH_LIMITS: 'memory' });
  const redis = await startServer(0, 'gateway-server.js', [upstream.url], [], {
    BENCH_LIMITS: 'redis',
    BENCH_REDIS_PREFIX: `bench:${process.pid}:${Date.now()}:`,
  });
  await setUpstreamMode(upstream, { chunks: STREAM_CHUNKS, delayMs: 0, hold: false });
  const measured = await againstBaseline(baseline, { memory, redis }, path, 'per-key limits');
  await stopServer(memory);
  await stopServer(redis);
  return {
    baseline: measured.baseline,
    memory: measured.configurations.memory!,
    redis: measured.configurations.redis!,
    redisPingUs: await redisRoundTripUs(),
  };
}

/** The request log (a JSON line per request, written to a file), metrics, and both, against the same gateway without them. */
async function measureOps(upstream: Started, baseline: Started): Promise<OpsMeasured> {
  const path: BenchPath = 'chat';
  const logFile = join(scratch, 'requests.log');
  const logOnly = await startServer(0, 'gateway-server.js', [upstream.url], [], {
    BENCH_OPS: 'log',
    BENCH_LOG_FILE: join(scratch, 'requests-log-only.log'),
  });
  const metrics = await startServer(0, 'gateway-server.js', [upstream.url], [], { BENCH_OPS: 'metrics' });
  const ops = await startServer(0, 'gateway-server.js', [upstream.url], [], { BENCH_OPS: 'on', BENCH_LOG_FILE: logFile });
  await setUpstreamMode(upstream, { chunks: STREAM_CHUNKS, delayMs: 0, hold: false });
  const measured = await againstBaseline(baseline, { log: logOnly, metrics, ops }, path, 'request log, metrics, both');
  const scrape = await fetch(`${ops.url}/metrics`).then((answer) => answer.status);
  for (const server of [logOnly, metrics, ops]) await stopServer(server);
  const lines = readFileSync(logFile, 'utf8').split('\n').length - 1;
  log(
    `  ${lines} request lines written; /metrics of the bench server: ${scrape === 404 ? 'not mounted (the registry is scraped by a host app)' : scrape}`,
  );
  const { configurations } = measured;
  return { baseline: measured.baseline, log: configurations.log!, metrics: configurations.metrics!, ops: configurations.ops!, lines };
}

/** The pipeline's other stages, each on its own: traces, a request policy with every kind of rule, a user's stage. */
async function measureOtherStages(upstream: Started, baseline: Started): Promise<OtherStagesMeasured> {
  const path: BenchPath = 'chat';
  const tracing = await startServer(0, 'gateway-server.js', [upstream.url], [], { BENCH_TRACING: 'on' });
  const policy = await startServer(0, 'gateway-server.js', [upstream.url], [], { BENCH_POLICY: 'layers' });
  const userStage = await startServer(0, 'gateway-server.js', [upstream.url], [], { BENCH_USER_STAGE: 'on' });
  await setUpstreamMode(upstream, { chunks: STREAM_CHUNKS, delayMs: 0, hold: false });
  const measured = await againstBaseline(baseline, { tracing, policy, userStage }, path, "the pipeline's other stages");
  // Each ran: the tracer ended a span a request or more, the user's stage saw the answers.
  const count = (printed: string, what: RegExp) => Number(what.exec(printed)?.[1] ?? 0);
  const spans = count(await stopServer(tracing), /spans ended (\d+)/);
  await stopServer(policy);
  const userStageAnswers = count(await stopServer(userStage), /user stage answered (\d+)/);
  if (spans === 0 || userStageAnswers === 0) throw new Error(`the other stages did not run: ${spans} spans, ${userStageAnswers} answers`);
  const { configurations } = measured;
  return {
    baseline: measured.baseline,
    tracing: configurations.tracing!,
    policy: configurations.policy!,
    userStage: configurations.userStage!,
    spans,
    userStageAnswers,
  };
}

/** A model with two deployments and a fallback, its cooldowns in memory and in Redis, against the same gateway with one deployment. */
async function measureRouting(upstream: Started, baseline: Started): Promise<RoutingMeasured> {
  const path: BenchPath = 'chat';
  const memory = await startServer(0, 'gateway-server.js', [upstream.url], [], { BENCH_ROUTING: 'memory' });
  const redis = await startServer(0, 'gateway-server.js', [upstream.url], [], {
    BENCH_ROUTING: 'redis',
    BENCH_REDIS_PREFIX: `bench:${process.pid}:${Date.now()}:`,
  });
  await setUpstreamMode(upstream, { chunks: STREAM_CHUNKS, delayMs: 0, hold: false });
  const measured = await againstBaseline(baseline, { memory, redis }, path, 'routing: two deployments and a fallback');
  // Both deployments served: the load was routed, not sent to one of them.
  const served = await servedDeployments(memory, path);
  await stopServer(memory);
  await stopServer(redis);
  return {
    baseline: measured.baseline,
    memory: measured.configurations.memory!,
    redis: measured.configurations.redis!,
    redisPingUs: await redisRoundTripUs(),
    served,
  };
}

/** The deployments that answered 40 requests (from `x-switchyard-deployment`). */
async function servedDeployments(server: Started, path: BenchPath): Promise<string[]> {
  const names = new Set<string>();
  for (let i = 0; i < 40; i++) {
    const answer = await fetch(`${server.url}${endpointOf[path]}`, {
      method: 'POST',
      headers: headersFor(server, path),
      body: bodyFor(server, path, false),
    });
    await answer.arrayBuffer();
    names.add(answer.headers.get('x-switchyard-deployment') ?? '(none)');
  }
  return [...names].sort();
}

/** The median of 2,000 PING round trips to REDIS_URL from this process, in µs: the floor under any Redis-backed request. */
async function redisRoundTripUs(): Promise<number> {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const times: number[] = [];
  try {
    for (let i = 0; i < 2_000; i++) {
      const startedAt = performance.now();
      await redis.ping();
      times.push((performance.now() - startedAt) * 1000);
    }
  } finally {
    redis.disconnect();
  }
  return median(times);
}

async function profile(upstream: Started, path: BenchPath): Promise<void> {
  const dir = join(benchDir, '.profiles', `${path}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const server = await startServer(0, 'gateway-server.js', [upstream.url], ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  await setUpstreamMode(upstream, { chunks: STREAM_CHUNKS, delayMs: 0, hold: false });
  await checkTarget(server, path);
  const load = values['profile-load'];
  if (load !== 'stream') await wrk(server, path, false, 64, seconds);
  if (load !== 'json') await wrk(server, path, true, 64, seconds);
  await stopServer(server);
  const what = load === 'json' ? 'non-streaming load' : load === 'stream' ? 'streaming load' : 'non-streaming + streaming load';
  log(`\nProfile of the gateway, ${path} path (${what}), in ${dir}:`);
  log(summariseProfiles(dir, 30));
}

/** The configurations of bench/instruction-configurations.ts that `--configurations` names, else those of `defaults`, in table order. */
function chosenConfigurations(defaults: readonly string[]): InstructionConfiguration[] {
  const wanted = values.configurations?.split(',') ?? defaults;
  const configurations = instructionConfigurations.filter((configuration) => wanted.includes(configuration.name));
  if (configurations.length === 0)
    throw new Error(`--configurations: none of ${instructionConfigurations.map((configuration) => configuration.name).join(', ')}`);
  return configurations;
}

/** The configurations `--allocation` measures when `--configurations` does not say: the targets and their references. */
const ALLOCATION_DEFAULTS = ['passthrough', 'json-floor', 'off', 'default', 'redis+keys'];

/** `--allocation`: bytes allocated and promoted per request (bench/allocation.ts), each server alone on core 0. */
async function measureAllocation(upstream: Started): Promise<void> {
  const configurations = chosenConfigurations(ALLOCATION_DEFAULTS);
  const run = `${process.pid}:${Date.now()}`;
  const rows: AllocationRow[] = [];
  for (const configuration of configurations) {
    const dir = join(scratch, `allocation-${configuration.name.replace(/\W/g, '_')}`);
    mkdirSync(dir, { recursive: true });
    const server = await startConfiguration(configuration, upstream, dir, run, ['--trace-gc-nvp']);
    let printed = '';
    server.child.stdout?.on('data', (text: Buffer) => (printed += text.toString()));
    await warmUp([server], paths);
    for (const path of paths) {
      const measured: AllocationRound[] = [];
      for (let round = 0; round < rounds; round++) {
        // One unmeasured second first: an idle process's young generation shrinks, and regrows under load.
        await wrk(server, path, false, 64, 1);
        const from = printed.length;
        const load = await wrk(server, path, false, 64, seconds);
        // The trace is written to a pipe: a moment for the last lines of the run to arrive.
        await sleep(100);
        const { requests } = load;
        measured.push({ requests, cpuMicros: load.cpuPerRequestUs * requests, totals: collectionTotalsOf(printed.slice(from)) });
      }
      const row = allocationRowOf(path, configuration.name, measured);
      log(
        `  ${configuration.name} ${path}: ${Math.round(row.allocatedPerRequest)} B allocated, ${Math.round(row.promotedPerRequest)} B promoted a request, ${row.fullCollections} full collections`,
      );
      rows.push(row);
    }
    await stopServer(server);
  }
  const table = renderAllocationTable(rows, configurations, {
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    seconds,
    rounds,
    warmSeconds,
  });
  process.stdout.write(`${table}\n`);
  writeResults(join(benchDir, 'RESULTS.md'), 'allocation', runFacts(benchDir), benchCommand(), table);
  log(`results written to bench/RESULTS.md`);
}

/** `--instructions`: the instruction counts under callgrind, printed and saved to .results/instructions-latest.*. */
async function countInstructions(upstream: Started): Promise<void> {
  const configurations = chosenConfigurations(instructionConfigurations.map((configuration) => configuration.name));
  const startedAt = performance.now();
  const warmup = Number(values.warmup);
  const requests = Number(values.requests);
  const connections = Number(values.connections);
  const answers = (values.answers ?? '')
    .split(',')
    .filter((answer): answer is 'json' | 'stream' => answer === 'json' || answer === 'stream');
  if (answers.length === 0) throw new Error('--answers: json, stream or both');
  const rows = await measureInstructions({
    upstreamUrl: upstream.url,
    paths,
    configurations,
    warmup,
    requests,
    connections,
    answers,
    cacheSimulation: values['cache-sim'],
    buildDir: here,
    scratch,
    log,
  });
  const table = renderInstructionTable(rows, configurations, {
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    valgrind: execFileSync('valgrind', ['--version']).toString().trim(),
    nodeFlags: NODE_FLAGS_UNDER_CALLGRIND,
    warmup,
    requests,
    connections,
    minutes: (performance.now() - startedAt) / 60_000,
    ...(values['cache-sim'] ? { simulatedCaches: SIMULATED_CACHES } : {}),
  });
  process.stdout.write(`${table}\n`);
  mkdirSync(join(benchDir, '.results'), { recursive: true });
  writeFileSync(join(benchDir, '.results/instructions-latest.json'), JSON.stringify({ warmup, requests, connections, rows }, null, 2));
  writeFileSync(join(benchDir, '.results/instructions-latest.md'), `${table}\n`);
  writeResults(join(benchDir, 'RESULTS.md'), 'instructions', runFacts(benchDir), benchCommand(), table);
  log(`results written to bench/RESULTS.md`);
}

/** The command line of this run, as a reader would type it. */
function benchCommand(): string {
  const args = process.argv.slice(2);
  return args.length === 0 ? 'npm run bench' : `npm run bench -- ${args.join(' ')}`;
}

async function main(): Promise<void> {
  log(`load generator: ${hasWrk ? 'wrk' : 'autocannon (wrk is not installed; it costs the load core more, the servers the same)'}`);
  // Instruction counts do not depend on which core runs what; one request at a time does wait on
  // each process's turn, so there the upstream is not pinned to a core others may be busy on.
  const upstream = await startServer(values.instructions ? undefined : 1, 'mock-upstream.js', []);
  if (values.instructions) {
    await setUpstreamMode(upstream, { chunks: STREAM_CHUNKS, delayMs: 0, hold: false });
    await countInstructions(upstream);
    await stopServer(upstream);
    return;
  }
  if (values.allocation) {
    await setUpstreamMode(upstream, { chunks: STREAM_CHUNKS, delayMs: 0, hold: false });
    await measureAllocation(upstream);
    await stopServer(upstream);
    return;
  }
  if (values['profile-only']) {
    for (const path of paths) await profile(upstream, path);
    await stopServer(upstream);
    return;
  }
  const results: Record<string, PairResult> = {};
  const floors: Record<string, Floors> = {};
  const sideBySide: Partial<Record<BenchPath, PeerMeasured[]>> = {};
  // One server of each kind serves every path in turn: a path is measured in a gateway that has
  // served (and still serves) the others, as a production server does.
  const passthrough = await startServer(0, 'passthrough.js', [upstream.url]);
  const gatewayServer = await startServer(0, 'gateway-server.js', [upstream.url]);
  const floor = await startServer(0, 'express-floor.js', [upstream.url]);
  const jsonFloor = await startServer(0, 'json-floor.js', [upstream.url]);
  const onlyOne =
    values['stores-only'] ||
    values['limits-only'] ||
    values['ops-only'] ||
    values['stages-only'] ||
    values['routing-only'] ||
    values['targets-only'];
  if (!onlyOne) {
    await setUpstreamMode(upstream, { chunks: STREAM_CHUNKS, delayMs: 0, hold: false });
    await warmUp([passthrough, gatewayServer], paths);
  }
  for (const path of onlyOne ? [] : paths) {
    results[path] = await measurePair({ passthrough, switchyard: gatewayServer }, upstream, path);
    // The Express floor always calls the Chat upstream and answers in Chat: measured where that is the caller's protocol or translated from it.
    const express = path === 'chat' || path === 'messages' ? await measureFloor(floor, path, 'express floor') : undefined;
    floors[path] = { json: await measureFloor(jsonFloor, path, 'JSON floor'), ...(express === undefined ? {} : { express }) };
    if (values.compare) sideBySide[path] = await measurePeers(path, upstream, passthrough, gatewayServer);
  }
  const stores = values['stores-only'] || (!values['skip-stores'] && !onlyOne) ? await measureStores(upstream, gatewayServer) : undefined;
  const limits = values['limits-only'] || (!values['skip-limits'] && !onlyOne) ? await measureLimits(upstream, gatewayServer) : undefined;
  const ops = values['ops-only'] || (!values['skip-ops'] && !onlyOne) ? await measureOps(upstream, gatewayServer) : undefined;
  const otherStages =
    values['stages-only'] || (!values['skip-stages'] && !onlyOne) ? await measureOtherStages(upstream, gatewayServer) : undefined;
  const routing =
    values['routing-only'] || (!values['skip-routing'] && !onlyOne) ? await measureRouting(upstream, gatewayServer) : undefined;
  const targets =
    values['targets-only'] || (!values['skip-targets'] && !onlyOne)
      ? await measureTargets(upstream, passthrough, gatewayServer)
      : undefined;
  log(`gateway RSS after all paths: ${(rssKb(gatewayServer.pid) / 1024).toFixed(0)} MB`);
  await stopServer(passthrough);
  await stopServer(gatewayServer);
  await stopServer(floor);
  await stopServer(jsonFloor);
  const sections = [
    ...(onlyOne
      ? []
      : [
          renderTable(
            results,
            {
              date: new Date().toISOString().slice(0, 10),
              node: process.version,
              seconds,
              rounds,
              worstForeignShare,
              loadGenerator: hasWrk ? 'wrk' : 'autocannon',
              ...(gatewayServer.stages === undefined ? {} : { stages: gatewayServer.stages }),
            },
            floors,
          ),
        ]),
    ...(values.compare && !onlyOne ? [renderPeerTable(sideBySide)] : []),
    ...(stores === undefined ? [] : [renderStoreTable(stores)]),
    ...(limits === undefined ? [] : [renderLimitsTable(limits)]),
    ...(ops === undefined ? [] : [renderOpsTable(ops)]),
    ...(otherStages === undefined ? [] : [renderOtherStagesTable(otherStages)]),
    ...(routing === undefined ? [] : [renderRoutingTable(routing)]),
    ...(targets === undefined ? [] : [renderTargetsTable(targets)]),
  ];
  const table = sections.join('\n\n');
  process.stdout.write(`${table}\n`);
  mkdirSync(join(benchDir, '.results'), { recursive: true });
  writeFileSync(
    join(benchDir, '.results/latest.json'),
    JSON.stringify({ results, floors, sideBySide, stores, limits, ops, otherStages, routing, targets }, null, 2),
  );
  writeFileSync(join(benchDir, '.results/latest.md'), `${table}\n`);
  writeResults(join(benchDir, 'RESULTS.md'), 'timed', runFacts(benchDir), benchCommand(), table);
  log(`results written to bench/RESULTS.md`);
  if (values.profile) for (const path of paths) await profile(upstream, path);
  await stopServer(upstream);
}

const cleanUp = () => {
  for (const child of [...children, ...runningUnderCallgrind]) child.kill('SIGTERM');
};
process.on('SIGINT', () => {
  cleanUp();
  process.exit(130);
});
main().catch((error: unknown) => {
  log(String(error instanceof Error ? error.stack : error));
  cleanUp();
  process.exit(1);
});
