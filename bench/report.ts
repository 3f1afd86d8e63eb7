// The bench's table: each metric for the passthrough and Switchyard, the ratio or the difference, the target.
import { cpus } from 'node:os';

export interface Measured {
  c1: { perSecond: number; p50Ms: number; p99Ms: number };
  c64: { perSecond: number; p50Ms: number; p99Ms: number };
  /** From the concurrency-64 non-streaming run. */
  cpuPerRequestUs: number;
  streamsPerSecond: number;
  cpuPerStreamUs: number;
  ttfbP50Ms: number;
  cpuPerEventUs: number;
  kbPerOpenStream: number;
  /** How many of the streams asked for were flowing when memory was read. */
  openStreams: number;
  errors: number;
}

/** Per-round Switchyard/passthrough ratios for the two ratio targets (rounds alternate, so each pair shares its conditions). */
export interface PairedRatios {
  cpuPerRequest: number[];
  c64PerSecond: number[];
  /** Older results may lack these two: their rows then compare the medians. */
  cpuPerStream?: number[];
  c64P99?: number[];
}

export interface PairResult {
  passthrough: Measured;
  switchyard: Measured;
  pairedRatios?: PairedRatios;
}

/** A floor's non-streaming numbers (see json-floor.ts and express-floor.ts). */
export interface Floor {
  c1P50Ms: number;
  c64PerSecond: number;
  cpuPerRequestUs: number;
}

/** The floors measured on one path: the JSON floor on every path, the Express floor on the Chat-answering ones. */
export interface Floors {
  json: Floor;
  express?: Floor;
}

const mark = (met: boolean | undefined) => (met === undefined ? '' : met ? ' ✅' : ' ❌');

type Comparison = (passthrough: number, switchyard: number) => { text: string; met?: boolean };

const ratio =
  (limit?: { atLeast?: number; atMost?: number }): Comparison =>
  (passthrough, switchyard) => {
    const value = switchyard / passthrough;
    const met =
      limit === undefined ? undefined : limit.atLeast !== undefined ? value >= limit.atLeast : value <= (limit.atMost ?? Infinity);
    return { text: `${value.toFixed(2)}×`, met };
  };

const added =
  (atMost?: number): Comparison =>
  (passthrough, switchyard) => {
    const value = switchyard - passthrough;
    return { text: `${value >= 0 ? '+' : ''}${value.toFixed(2)} ms`, met: atMost === undefined ? undefined : value <= atMost };
  };

const absolute =
  (below: number, unit: string): Comparison =>
  (_passthrough, switchyard) => ({ text: `${switchyard.toFixed(1)} ${unit}`, met: switchyard < below });

interface Row {
  label: string;
  target: string;
  pick: (measured: Measured) => number;
  digits: number;
  compare: Comparison;
  /** Judged on the median of the per-round ratios (shown with every round's) rather than the ratio of medians. */
  paired?: keyof PairedRatios;
  limit?: { atLeast?: number; atMost?: number };
}

/** The middle value (of an even count, the upper of the two middle ones); NaN for none. */
export const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** A median ratio with every round's ratio after it, in round order: `1.24× (1.21, 1.24, 1.30)`. */
function ratioWithRounds(middle: number, rounds: readonly number[]): string {
  return `${middle.toFixed(2)}× (${rounds.map((ratio) => ratio.toFixed(2)).join(', ')})`;
}

function pairedCell(ratios: number[], limit: { atLeast?: number; atMost?: number } | undefined): string {
  const value = median(ratios);
  const met = limit?.atLeast !== undefined ? value >= limit.atLeast : value <= (limit?.atMost ?? Infinity);
  return `${ratioWithRounds(value, ratios)}${mark(met)}`;
}

const rows: Row[] = [
  { label: 'req/s, concurrency 1', target: '', pick: (m) => m.c1.perSecond, digits: 0, compare: ratio() },
  { label: 'p50 latency, concurrency 1 (ms)', target: '≤ +0.3 ms', pick: (m) => m.c1.p50Ms, digits: 3, compare: added(0.3) },
  { label: 'p99 latency, concurrency 1 (ms)', target: '', pick: (m) => m.c1.p99Ms, digits: 3, compare: added() },
  {
    label: 'req/s, concurrency 64',
    target: '≥ 0.8×',
    pick: (m) => m.c64.perSecond,
    digits: 0,
    compare: ratio({ atLeast: 0.8 }),
    paired: 'c64PerSecond',
    limit: { atLeast: 0.8 },
  },
  { label: 'p50 latency, concurrency 64 (ms)', target: '', pick: (m) => m.c64.p50Ms, digits: 2, compare: added() },
  {
    label: 'p99 latency, concurrency 64 (ms)',
    target: '≤ 1.5×',
    pick: (m) => m.c64.p99Ms,
    digits: 2,
    compare: ratio({ atMost: 1.5 }),
    paired: 'c64P99',
    limit: { atMost: 1.5 },
  },
  {
    label: 'CPU per request (µs)',
    target: '≤ 1.3×',
    pick: (m) => m.cpuPerRequestUs,
    digits: 0,
    compare: ratio({ atMost: 1.3 }),
    paired: 'cpuPerRequest',
    limit: { atMost: 1.3 },
  },
  { label: 'streams/s, 50 chunks, concurrency 64', target: '', pick: (m) => m.streamsPerSecond, digits: 0, compare: ratio() },
  {
    label: 'CPU per 50-chunk stream (µs)',
    target: '≤ 1.5×',
    pick: (m) => m.cpuPerStreamUs,
    digits: 0,
    compare: ratio({ atMost: 1.5 }),
    paired: 'cpuPerStream',
    limit: { atMost: 1.5 },
  },
  { label: 'time to first byte p50 (ms)', target: '≤ +0.5 ms', pick: (m) => m.ttfbP50Ms, digits: 3, compare: added(0.5) },
  {
    label: 'CPU per stream event, paced (µs)',
    target: '≤ 100 µs',
    pick: (m) => m.cpuPerEventUs,
    digits: 1,
    compare: absolute(100.0001, 'µs'),
  },
  { label: 'memory per open stream (KB)', target: '< 50 KB', pick: (m) => m.kbPerOpenStream, digits: 1, compare: absolute(50, 'KB') },
  {
    label: 'streams flowing of 2,000 opened',
    target: '2000',
    pick: (m) => m.openStreams,
    digits: 0,
    compare: (_a, b) => ({ text: String(b), met: b === 2000 }),
  },
];

/** A Markdown table: one column group per path. */
export function renderTable(
  results: Record<string, PairResult>,
  run: {
    date: string;
    node: string;
    seconds: number;
    rounds: number;
    worstForeignShare: number;
    loadGenerator: string;
    /** The stages Switchyard's requests ran. */
    stages?: string[];
  },
  floors: Record<string, Floors> = {},
): string {
  const paths = Object.keys(results);
  const titles: Record<string, string> = {
    chat: 'Chat → OpenAI (same protocol)',
    messages: 'Messages → OpenAI Chat (translated)',
    responses: 'Responses → OpenAI Responses (same protocol)',
    anthropic: 'Messages → Anthropic (same protocol)',
  };
  const header = ['metric', 'target', ...paths.flatMap((path) => [`${titles[path] ?? path}: passthrough`, 'Switchyard', 'vs passthrough'])];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) {
    const cells = [row.label, row.target];
    for (const path of paths) {
      const { passthrough, switchyard, pairedRatios } = results[path] ?? {};
      if (!passthrough || !switchyard) continue;
      const [a, b] = [row.pick(passthrough), row.pick(switchyard)];
      const compared = row.compare(a, b);
      const ratios = row.paired === undefined ? undefined : pairedRatios?.[row.paired];
      const verdict = ratios !== undefined && ratios.length > 0 ? pairedCell(ratios, row.limit) : `${compared.text}${mark(compared.met)}`;
      cells.push(a.toFixed(row.digits), b.toFixed(row.digits), verdict);
    }
    lines.push(`| ${cells.join(' | ')} |`);
  }
  const errors = paths.reduce((sum, path) => sum + (results[path]?.switchyard.errors ?? 0) + (results[path]?.passthrough.errors ?? 0), 0);
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return [
    `Measured ${run.date} on Node ${run.node}, ${cpus().length} × ${cpu}. Server under test on core 0, ${run.loadGenerator} + mock upstream on core 1;`,
    `medians of ${run.rounds} alternating rounds, ${run.seconds} s per ${run.loadGenerator} run (ratio targets: median of each round's own ratio, with every round's after it); ${errors} failed requests; other processes took up to ${(run.worstForeignShare * 100).toFixed(0)}% of core 0 during a run.` +
      (run.stages === undefined ? '' : ` Switchyard's requests ran the stages ${stagesCell(run.stages)}.`),
    '',
    ...lines,
    ...renderFloors(results, floors),
  ].join('\n');
}

/**
 * The floors next to the passthrough and Switchyard, non-streaming: the JSON floor (what reading and
 * writing both bodies costs on bare node:http) and the Express floor (what Express adds to that).
 */
function renderFloors(results: Record<string, PairResult>, floors: Record<string, Floors>): string[] {
  const paths = Object.keys(floors);
  if (paths.length === 0) return [];
  const lines = [
    '',
    'Reference: the floors, non-streaming, each measured after the pair (not alternated with it). The JSON floor is bare node:http + one undici call to the same endpoint upstream, both bodies parsed and re-serialised (bench/json-floor.ts); the Express floor is Express 5 router + express.json + one undici call to the Chat upstream + JSON (bench/express-floor.ts). Neither authenticates, validates, routes or translates.',
    '',
    '| path | passthrough CPU/req | JSON floor CPU/req | Express floor CPU/req | Switchyard CPU/req | Switchyard vs JSON floor | JSON floor p50, c1 |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const path of paths) {
    const floor = floors[path];
    const result = results[path];
    if (!floor || !result) continue;
    const base = result.passthrough.cpuPerRequestUs;
    const times = (value: number) => `${value.toFixed(0)} µs (${(value / base).toFixed(2)}×)`;
    const express = floor.express === undefined ? '' : times(floor.express.cpuPerRequestUs);
    const switchyard = result.switchyard.cpuPerRequestUs;
    lines.push(
      `| ${path} | ${base.toFixed(0)} µs | ${times(floor.json.cpuPerRequestUs)} | ${express} | ${times(switchyard)} | ${(switchyard / floor.json.cpuPerRequestUs).toFixed(2)}× | ${floor.json.c1P50Ms.toFixed(3)} ms |`,
    );
  }
  return lines;
}

/** One gateway in the side-by-side run: medians of its rounds, and the median of each round's ratio to the passthrough. */
export interface PeerMeasured {
  name: string;
  perSecond: number;
  p99Ms: number;
  cpuPerRequestUs: number;
  cpuPerStreamUs: number;
  ratios: { perSecond: number; p99: number; cpuPerRequest: number; cpuPerStream: number };
  errors: number;
  /** It exited under load; its numbers are from the rounds before. */
  crashed: boolean;
}

const pathTitles: Record<string, string> = {
  chat: 'Chat → OpenAI',
  messages: 'Messages → OpenAI Chat (translated)',
  responses: 'Responses → OpenAI Responses',
  anthropic: 'Messages → Anthropic',
};

/** The side-by-side table: per path, every gateway that serves it, at concurrency 64. */
export function renderPeerTable(sideBySide: Partial<Record<string, PeerMeasured[]>>): string {
  const rows = [
    'Side by side (`--compare`), concurrency 64, same mock upstream, same core; ratios are to the passthrough of the same round:',
    '',
    '| path | gateway | req/s | p99 (ms) | CPU/request (µs) | CPU per 50-chunk stream (µs) |',
    '|---|---|---|---|---|---|',
  ];
  for (const [path, measured] of Object.entries(sideBySide)) {
    for (const peer of measured ?? []) {
      const failed = (peer.errors > 0 ? ` (${peer.errors} failed)` : '') + (peer.crashed ? ' (exited under load)' : '');
      const cell = (value: number, digits: number, ratio: number) =>
        Number.isNaN(value) ? 'not measured' : `${value.toFixed(digits)} (${ratio.toFixed(2)}×)`;
      rows.push(
        `| ${pathTitles[path] ?? path} | ${peer.name}${failed} | ${cell(peer.perSecond, 0, peer.ratios.perSecond)} | ${cell(peer.p99Ms, 1, peer.ratios.p99)} | ` +
          `${cell(peer.cpuPerRequestUs, 0, peer.ratios.cpuPerRequest)} | ${cell(peer.cpuPerStreamUs, 0, peer.ratios.cpuPerStream)} |`,
      );
    }
  }
  return rows.join('\n');
}

/** The server a set of configurations is measured against. */
export interface BaselineMeasured {
  cpuPerRequestUs: number;
  p50Ms: number;
  /** The stages its requests ran (a gateway's); undefined for the passthrough. */
  stages?: string[];
}

/** The stages a row's requests ran, in order, for the table: what the row's cost is made of. */
function stagesCell(stages: readonly string[] | undefined): string {
  return stages === undefined ? '—' : stages.join(' → ');
}

/** One configuration with stored keys and the ledger, against the gateway without them. */
export interface StoreConfigurationMeasured {
  /** Median of each round's CPU per request over the baseline's in the same round (concurrency 64). */
  cpuPerRequestRatio: number;
  /** Every round's ratio, in order. */
  cpuPerRequestRatios: number[];
  /** The same two servers loaded one at a time in each round (the target rows only). */
  alone?: { cpuPerRequestRatio: number; cpuPerRequestRatios: number[]; cpuPerRequestUs: number; baselineCpuPerRequestUs: number };
  /** The stages its requests ran. */
  stages?: string[];
  perSecondRatio: number;
  /** Median of each round's concurrency-1 p50 minus the baseline's. */
  p50AddedMs: number;
  cpuPerRequestUs: number;
  p50Ms: number;
}

export interface StoreMeasured {
  baseline: BaselineMeasured;
  sqlite: StoreConfigurationMeasured;
  postgres: StoreConfigurationMeasured;
  /** Concurrency-1 latency on PostgreSQL without and with a 2 s database stall in the middle of the load. */
  stall: {
    calm: { p50Ms: number; p99Ms: number; maxMs: number };
    stalled: { p50Ms: number; p99Ms: number; maxMs: number; errors: number };
  };
}

/** The stored keys + ledger rows of bench/RESULTS.md. */
export function renderStoreTable(stores: StoreMeasured): string {
  const mark = (ok: boolean) => (ok ? '✓' : '✗');
  const row = (name: string, measured: StoreConfigurationMeasured) =>
    `| ${name} | ${measured.cpuPerRequestUs.toFixed(0)} µs | ${ratioWithRounds(measured.cpuPerRequestRatio, measured.cpuPerRequestRatios)} ${mark(measured.cpuPerRequestRatio <= 1.15)} | ${measured.perSecondRatio.toFixed(2)}× | ${measured.p50Ms.toFixed(3)} ms | ${(measured.p50AddedMs * 1000).toFixed(0)} µs ${mark(measured.p50AddedMs <= 0.1)} | ${stagesCell(measured.stages)} |`;
  const { calm, stalled } = stores.stall;
  const stallAdded = (stalled.p99Ms - calm.p99Ms) * 1000;
  return [
    'Stored keys + usage ledger (chat path, non-streaming; ratios are per-round medians against the same gateway without them, loaded at the same time):',
    '',
    '| configuration | CPU/req (c64) | CPU/req ratio (≤ 1.15×) | req/s ratio | p50 (c1) | p50 added (≤ 100 µs) | stages run |',
    '|---|---|---|---|---|---|---|',
    `| without (configured key, no ledger) | ${stores.baseline.cpuPerRequestUs.toFixed(0)} µs | 1.00× | 1.00× | ${stores.baseline.p50Ms.toFixed(3)} ms | — | ${stagesCell(stores.baseline.stages)} |`,
    row('stored key + ledger, SQLite', stores.sqlite),
    row('stored key + ledger, PostgreSQL', stores.postgres),
    '',
    `PostgreSQL stalled 2 s mid-load (concurrency 1): p50 ${calm.p50Ms.toFixed(3)} → ${stalled.p50Ms.toFixed(3)} ms, ` +
      `p99 ${calm.p99Ms.toFixed(3)} → ${stalled.p99Ms.toFixed(3)} ms (${stallAdded.toFixed(0)} µs; ≤ 1 ms ${mark(stallAdded <= 1000)}), ` +
      `max ${calm.maxMs.toFixed(1)} → ${stalled.maxMs.toFixed(1)} ms, ${stalled.errors} errors.`,
  ].join('\n');
}

export interface LimitsMeasured {
  baseline: BaselineMeasured;
  memory: StoreConfigurationMeasured;
  redis: StoreConfigurationMeasured;
  /** A Redis PING round trip from the bench process (median), for scale. */
  redisPingUs: number;
}

/** Targets a configuration's row is marked against (✓/✗); a table without them shows the numbers alone. */
interface RowTargets {
  cpuRatio?: number;
  p50AddedUs?: number;
}

/**
 * A table of configurations measured against one baseline (`againstBaseline` in run.ts): the
 * baseline's row, then one row per configuration, with the columns' targets in their headers.
 */
function renderAgainstBaseline(
  title: string,
  baseline: BaselineMeasured & { name: string },
  rows: ReadonlyArray<[string, StoreConfigurationMeasured]>,
  targets: RowTargets,
  footer: string,
): string {
  const mark = (value: number, target: number | undefined) => (target === undefined ? '' : value <= target ? ' ✓' : ' ✗');
  const row = ([name, measured]: [string, StoreConfigurationMeasured]) =>
    `| ${name} | ${measured.cpuPerRequestUs.toFixed(0)} µs | ${ratioWithRounds(measured.cpuPerRequestRatio, measured.cpuPerRequestRatios)}${mark(measured.cpuPerRequestRatio, targets.cpuRatio)} | ${measured.perSecondRatio.toFixed(2)}× | ${measured.p50Ms.toFixed(3)} ms | ${(measured.p50AddedMs * 1000).toFixed(0)} µs${mark(measured.p50AddedMs * 1000, targets.p50AddedUs)} | ${stagesCell(measured.stages)} |`;
  const cpuHeader = targets.cpuRatio === undefined ? 'CPU/req ratio' : `CPU/req ratio (≤ ${targets.cpuRatio.toFixed(2)}×)`;
  const p50Header = targets.p50AddedUs === undefined ? 'p50 added' : `p50 added (≤ ${targets.p50AddedUs} µs)`;
  return [
    title,
    '',
    `| configuration | CPU/req (c64) | ${cpuHeader} | req/s ratio | p50 (c1) | ${p50Header} | stages run |`,
    '|---|---|---|---|---|---|---|',
    `| ${baseline.name} | ${baseline.cpuPerRequestUs.toFixed(0)} µs | 1.00× | 1.00× | ${baseline.p50Ms.toFixed(3)} ms | — | ${stagesCell(baseline.stages)} |`,
    ...rows.map(row),
    '',
    footer,
  ].join('\n');
}

/** The per-key limits rows of bench/RESULTS.md. */
export function renderLimitsTable(limits: LimitsMeasured): string {
  return renderAgainstBaseline(
    'Per-key limits — requests and tokens per minute and concurrency, none reached (chat path, non-streaming; ratios are per-round medians against the same gateway without limits, loaded at the same time):',
    { name: 'without limits', ...limits.baseline },
    [
      ['limits in memory', limits.memory],
      ['limits in Redis', limits.redis],
    ],
    { cpuRatio: 1.15, p50AddedUs: 150 },
    `A Redis PING round trip on this machine takes ${limits.redisPingUs.toFixed(0)} µs (median): the floor under the Redis row's p50 added.`,
  );
}

export interface OpsMeasured {
  baseline: BaselineMeasured;
  log: StoreConfigurationMeasured;
  metrics: StoreConfigurationMeasured;
  ops: StoreConfigurationMeasured;
  /** Request lines the server with both on wrote (one per request it answered). */
  lines: number;
}

/** The operations rows: the request log, metrics, and both on, against the same gateway without them. */
export function renderOpsTable(ops: OpsMeasured): string {
  return renderAgainstBaseline(
    'Operations — a JSON request line per request (held up to 10 ms and written together, as `requestLog: true` writes stdout, to a file) and Prometheus metrics (chat path, non-streaming; ratios are per-round medians against the same gateway without them, loaded at the same time):',
    { name: 'log and metrics off', ...ops.baseline },
    [
      ['request log only', ops.log],
      ['metrics only', ops.metrics],
      ['log and metrics on', ops.ops],
    ],
    { cpuRatio: 1.1 },
    `${ops.lines} request lines were written during the measurement.`,
  );
}

export interface OtherStagesMeasured {
  baseline: BaselineMeasured;
  tracing: StoreConfigurationMeasured;
  policy: StoreConfigurationMeasured;
  userStage: StoreConfigurationMeasured;
  /** Spans the tracing server's tracer ended, and answers the user's stage saw: both ran. */
  spans: number;
  userStageAnswers: number;
}

/** The other stages' rows: traces, a request policy with every kind of rule, a user's stage, each against the same gateway without it. */
export function renderOtherStagesTable(stages: OtherStagesMeasured): string {
  return renderAgainstBaseline(
    "The pipeline's other stages, each on its own (chat path, non-streaming; ratios are per-round medians against the same gateway without it, loaded at the same time): traces to an OpenTelemetry tracer that keeps each span until it ends (bench/bench-tracer.ts: the gateway's part; an SDK's processing and export come on top), a request policy with a rule of every kind and a layer for the key (fields, hosted tools, betas, caps), and a user's stage that reads the context before the call and after the answer:",
    { name: 'none of them', ...stages.baseline },
    [
      ['traces', stages.tracing],
      ['request policy, every kind of rule', stages.policy],
      ["a user's stage", stages.userStage],
    ],
    {},
    `The tracer ended ${stages.spans} spans; the user's stage saw ${stages.userStageAnswers} answers.`,
  );
}

export interface RoutingMeasured {
  baseline: BaselineMeasured;
  memory: StoreConfigurationMeasured;
  redis: StoreConfigurationMeasured;
  redisPingUs: number;
  /** The deployments that answered a check after the load (both, when requests are routed). */
  served: string[];
}

/** The routing rows: a model with choices (deployments, a fallback) reads its cooldowns on every request. */
export function renderRoutingTable(routing: RoutingMeasured): string {
  return renderAgainstBaseline(
    "Routing — the chat model served by two deployments (weighted) with a fallback model, so each request is routed and reads the deployments' cooldowns; no upstream fails (chat path, non-streaming; ratios are per-round medians against the same gateway with one deployment, loaded at the same time):",
    { name: 'one deployment', ...routing.baseline },
    [
      ['two deployments and a fallback, cooldowns in memory', routing.memory],
      ['the same, cooldowns in Redis', routing.redis],
    ],
    {},
    `Deployments that answered 40 requests afterwards: ${routing.served.join(', ')}. A Redis PING round trip takes ${routing.redisPingUs.toFixed(0)} µs (median).`,
  );
}

export interface TargetsMeasured {
  /** Per path: the passthrough's figures, and each configuration's against it (loaded at the same time). */
  paths: Partial<Record<string, { baseline: BaselineMeasured; configurations: Record<string, StoreConfigurationMeasured> }>>;
  /** Each configuration's CPU-per-request target, as a ratio to the passthrough's. */
  targets: Record<string, number>;
}

/** The target rows: each configuration against the passthrough loaded beside it, marked against its own target. */
export function renderTargetsTable(measured: TargetsMeasured): string {
  const lines = [
    "The targets, side by side — the gateway with every feature off, as the standalone server starts (SQLite ledger, request log, metrics), and with Redis limits and a stored key as well (the servers of the instruction table's `off`, `default` and `redis+keys`), each loaded at concurrency 64 at the same time as the passthrough, both on core 0, and judged so; ratios are per-round medians, each round's after it. `alone`: in each round after that, the same two servers loaded one at a time (the main table's method), where neither shares the core's cache with the other. `passthrough again` is a second passthrough process measured the same way: how far from 1.00× each method itself lands.",
    '',
    '| path | configuration | CPU/req (c64) | CPU/req vs passthrough, at once (rounds) | target | alone: CPU/req | alone: vs passthrough (rounds) | req/s ratio | p50 (c1) | p50 added | stages run |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [path, result] of Object.entries(measured.paths)) {
    if (result === undefined) continue;
    const aloneBaseline = Object.values(result.configurations)
      .map((row) => row.alone?.baselineCpuPerRequestUs)
      .filter((us) => us !== undefined);
    const aloneBaselineCell = aloneBaseline.length === 0 ? '' : `${median(aloneBaseline).toFixed(0)} µs`;
    lines.push(
      `| ${path} | passthrough | ${result.baseline.cpuPerRequestUs.toFixed(0)} µs | 1.00× | | ${aloneBaselineCell} | 1.00× | 1.00× | ${result.baseline.p50Ms.toFixed(3)} ms | — | ${stagesCell(result.baseline.stages)} |`,
    );
    for (const [name, row] of Object.entries(result.configurations)) {
      const target = measured.targets[name];
      const verdict = target === undefined ? '' : `≤ ${target.toFixed(1)}× ${row.cpuPerRequestRatio <= target ? '✅' : '❌'}`;
      const { alone } = row;
      const aloneCells =
        alone === undefined
          ? '| | |'
          : `| ${alone.cpuPerRequestUs.toFixed(0)} µs | ${ratioWithRounds(alone.cpuPerRequestRatio, alone.cpuPerRequestRatios)} |`;
      lines.push(
        `| ${path} | ${name} | ${row.cpuPerRequestUs.toFixed(0)} µs | ${ratioWithRounds(row.cpuPerRequestRatio, row.cpuPerRequestRatios)} | ${verdict} ${aloneCells} ${row.perSecondRatio.toFixed(2)}× | ${row.p50Ms.toFixed(3)} ms | ${(row.p50AddedMs * 1000).toFixed(0)} µs | ${stagesCell(row.stages)} |`,
      );
    }
  }
  return lines.join('\n');
}
