import { Counter, Gauge, Registry } from 'prom-client';
import { BucketTotals } from './bucket-totals.js';
import { LabelTotals } from './label-totals.js';
import type { PriceUsage } from '../usage/ledger-stage.js';
import type { Recorder } from '../usage/record-stage.js';
import { createKeyLabel } from './key-label.js';
import type { UpstreamObserver } from './upstream-observer.js';

/** A gateway's Prometheus registry (prom-client's `Registry`). */
export type MetricsRegistry = Registry;

/** The `metrics` option's settings. */
export interface MetricsOptions {
  /**
   * Whether tokens and cost are also labelled by key (its public id): `true` gives the first 100
   * keys seen their own label, a number that many; every later key is `other`. Default `false`.
   */
  keyLabels?: boolean | number;
}

/** What the limits stage counted since the start (read when scraped). */
export interface LimitCountsSource {
  refused: number;
  storeFailures: number;
  waiting: number;
}

/** What the ledger writer counted since the start (read when scraped). */
export interface LedgerCountsSource {
  written: number;
  waiting: number;
  failedWrites: number;
}

/** What the unusual-spend watch counted (read when scraped). */
export interface UnusualSpendCountsSource {
  checks: number;
  flags: number;
  pauses: number;
  flaggedKeys: number;
  pausedKeys: number;
}

/** Where the metrics read the gateway's state when scraped. */
export interface MetricSources {
  /** Generation requests being answered, and how many of them are streams that began. */
  open(): { requests: number; streams: number };
  limits?: (() => LimitCountsSource | undefined) | undefined;
  ledger?: (() => LedgerCountsSource | undefined) | undefined;
  unusualSpend?: (() => UnusualSpendCountsSource) | undefined;
  /** Prices usage as the ledger does; unpriced usage adds nothing to the cost counter. */
  price?: PriceUsage | undefined;
}

/** The gateway's Prometheus metrics: its own registry, the "record" stage that feeds it, and the router's observer. */
export interface GatewayMetrics extends UpstreamObserver {
  /** This gateway's registry (not prom-client's global one): two gateways in one process do not collide. */
  readonly registry: Registry;
  readonly stage: Recorder;
}

const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const FIRST_TOKEN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];
const DEFAULT_KEY_LABELS = 100;

/** A counter whose value is read from a source when scraped. */
function countedFrom(registry: Registry, name: string, help: string, read: () => number | undefined): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const value = read();
      this.reset();
      if (value !== undefined) this.inc(value);
    },
  });
}

function gaugedFrom(registry: Registry, name: string, help: string, read: () => number | undefined): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      const value = read();
      if (value === undefined) this.reset();
      else this.set(value);
    },
  });
}

/** Adds to a series labelled by model, then key when keys are labels, then `type` when given. */
function addUsage(totals: LabelTotals<string>, value: number, model: string, key: string | undefined, type?: string): void {
  if (key === undefined) {
    if (type === undefined) totals.add(value, model);
    else totals.add(value, model, type);
  } else if (type === undefined) totals.add(value, model, key);
  else totals.add(value, model, key, type);
}

/** Creates the metrics of one gateway (names in docs/operations.md, "Metrics"). */
export function createGatewayMetrics(sources: MetricSources, options: MetricsOptions = {}): GatewayMetrics {
  const registry = new Registry();
  const registers = [registry];
  const byKey = options.keyLabels !== undefined && options.keyLabels !== false;
  const keyLabel = createKeyLabel(typeof options.keyLabels === 'number' ? options.keyLabels : DEFAULT_KEY_LABELS);
  const usageLabels = byKey ? (['model', 'key'] as const) : (['model'] as const);

  // Counters and histograms fed on every request keep their totals in plain maps (label-totals.ts, bucket-totals.ts).
  const requests = new LabelTotals({
    name: 'switchyard_requests_total',
    help: 'Generation requests answered, by inbound protocol, model and HTTP status.',
    labelNames: ['protocol', 'model', 'status'],
    registers,
  });
  const duration = new BucketTotals({
    name: 'switchyard_request_duration_seconds',
    help: "Time from a request's arrival to the end of its answer.",
    labelNames: ['protocol', 'model'],
    buckets: DURATION_BUCKETS,
    registers,
  });
  const firstToken = new BucketTotals({
    name: 'switchyard_time_to_first_token_seconds',
    help: 'Streams: time from arrival to the first output sent.',
    labelNames: ['protocol', 'model'],
    buckets: FIRST_TOKEN_BUCKETS,
    registers,
  });
  const tokens = new LabelTotals({
    name: 'switchyard_tokens_total',
    help: 'Tokens the answers reported, by model and type (input, output, cached, reasoning).',
    labelNames: [...usageLabels, 'type'],
    registers,
  });
  const cost = new LabelTotals({
    name: 'switchyard_cost_usd_total',
    help: 'Cost of the answers at the configured prices, in USD (unpriced answers add nothing).',
    labelNames: usageLabels,
    registers,
  });
  const attempts = new LabelTotals({
    name: 'switchyard_upstream_attempts_total',
    help: 'Upstream calls, by deployment and outcome.',
    labelNames: ['deployment', 'outcome'],
    registers,
  });
  const retries = new LabelTotals({
    name: 'switchyard_upstream_retries_total',
    help: "Upstream calls after a request's first (retries, other deployments, fallbacks), by deployment.",
    labelNames: ['deployment'],
    registers,
  });
  const cooldown = new Gauge({
    name: 'switchyard_deployment_cooldown',
    help: '1 while a deployment is taken out of service after failures, else 0.',
    labelNames: ['deployment'],
    registers,
  });

  gaugedFrom(registry, 'switchyard_open_requests', 'Generation requests being answered now.', () => sources.open().requests);
  gaugedFrom(registry, 'switchyard_open_streams', 'Streams sending now.', () => sources.open().streams);
  if (sources.limits !== undefined) {
    const limits = sources.limits;
    countedFrom(
      registry,
      'switchyard_limit_rejections_total',
      'Requests refused with a 429 by a rate, token or concurrency limit.',
      () => limits()?.refused,
    );
    countedFrom(
      registry,
      'switchyard_limit_store_failures_total',
      'Limit-store (Redis) calls that failed or timed out.',
      () => limits()?.storeFailures,
    );
    gaugedFrom(registry, 'switchyard_limit_waiting_requests', 'Requests waiting for a concurrency slot now.', () => limits()?.waiting);
  }
  if (sources.ledger !== undefined) {
    const ledger = sources.ledger;
    gaugedFrom(
      registry,
      'switchyard_ledger_backlog_rows',
      'Usage rows waiting to be written to the database (buffer and outbox).',
      () => ledger()?.waiting,
    );
    countedFrom(registry, 'switchyard_ledger_rows_written_total', 'Usage rows written to the database.', () => ledger()?.written);
    countedFrom(
      registry,
      'switchyard_ledger_failed_writes_total',
      'Database writes of usage rows that failed (the rows stayed in the outbox).',
      () => ledger()?.failedWrites,
    );
  }

  if (sources.unusualSpend !== undefined) {
    // No key label: any key may be flagged once, and a series per key would outlive its flag; the
    // warn line and the console name the key, the metric says that it happened, for an alert.
    const unusual = sources.unusualSpend;
    countedFrom(
      registry,
      'switchyard_unusual_spend_checks_total',
      'Checks of the keys that spent for unusual spend.',
      () => unusual().checks,
    );
    countedFrom(
      registry,
      'switchyard_unusual_spend_flags_total',
      "Keys this instance flagged for unusual spend (an hour at 5x the key's hourly average, over $1).",
      () => unusual().flags,
    );
    countedFrom(
      registry,
      'switchyard_key_pauses_total',
      'Keys this instance paused for unusual spend (unusualSpend.pause).',
      () => unusual().pauses,
    );
    gaugedFrom(
      registry,
      'switchyard_unusual_spend_keys',
      'Keys flagged for unusual spend now (the same on every instance: use max).',
      () => unusual().flaggedKeys,
    );
    gaugedFrom(
      registry,
      'switchyard_paused_keys',
      'Keys paused for unusual spend now, until an admin lifts the pause (the same on every instance: use max).',
      () => unusual().pausedKeys,
    );
  }

  const { price } = sources;
  const stage: Recorder = {
    record(record) {
      const model = record.model ?? 'unknown';
      const { protocol } = record;
      requests.add(1, protocol, model, String(record.status));
      duration.observe(record.durationMs / 1000, protocol, model);
      if (record.firstOutputMs !== undefined) firstToken.observe(record.firstOutputMs / 1000, protocol, model);
      const { usage } = record;
      if (usage === undefined) return;
      const key = byKey ? keyLabel(record.caller?.keyId) : undefined;
      if (usage.inputTokens !== undefined) addUsage(tokens, usage.inputTokens, model, key, 'input');
      if (usage.outputTokens !== undefined) addUsage(tokens, usage.outputTokens, model, key, 'output');
      if (usage.cachedInputTokens !== undefined) addUsage(tokens, usage.cachedInputTokens, model, key, 'cached');
      if (usage.reasoningTokens !== undefined) addUsage(tokens, usage.reasoningTokens, model, key, 'reasoning');
      const priced = price?.(record, usage);
      if (priced !== undefined) addUsage(cost, priced.nanoUsd / 1e9, model, key);
    },
  };

  return {
    registry,
    stage,
    upstreamAttempt(attempt) {
      attempts.add(1, attempt.deployment, attempt.outcome);
      if (attempt.retry) retries.add(1, attempt.deployment);
    },
    cooldown(deployment, active) {
      cooldown.set({ deployment }, active ? 1 : 0);
    },
  };
}
