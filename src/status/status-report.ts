import { queryFailureAt, queryFirstTokenSample, queryHealthBuckets, type HealthBucket } from '../usage/model-health-queries.js';
import type { StorageDb } from '../storage/schema.js';
import { percentile } from './percentile.js';

export const STATUS_WINDOWS = ['hour', 'day', 'week'] as const;
export type StatusWindow = (typeof STATUS_WINDOWS)[number];

export const WINDOW_MS: Record<StatusWindow, number> = { hour: 3_600_000, day: 86_400_000, week: 604_800_000 };

/** A model's figures over one window. Rates are fractions (0–1) of the answers that say something of the model. */
export interface WindowFigures {
  /** Every ledger row: answers, failures, and the callers' own errors. */
  requests: number;
  /** Answers that succeeded, were rate-limited or failed upstream: the base of the three rates. */
  counted: number;
  /** null without a counted answer. */
  successRate: number | null;
  rateLimitedRate: number | null;
  upstreamErrorRate: number | null;
  /** Time to first token of successful streams, ms; null without any. */
  firstTokenMs: { p50: number; p95: number; samples: number } | null;
  /** Output tokens per second of successful answers (after the first token, for streams). */
  outputTokensPerSecond: number | null;
  /** Of `requests`, how many were the gateway's own probe. */
  probes: number;
}

export type ModelState = 'operational' | 'degraded' | 'failing' | 'no-traffic';

export interface ModelStatus {
  id: string;
  /** From the last hour: operational (≥ 95 % success), degraded (≥ 50 %), failing, or no traffic. */
  state: ModelState;
  windows: Record<StatusWindow, WindowFigures>;
  /** The latest failure or 429 in the week: its error code (or `HTTP_<status>`), status and time. */
  lastError: { code: string; status: number; at: string } | null;
  lastRequestAt: string | null;
  lastProbeAt: string | null;
}

export interface StatusReport {
  /** The gateway's package version. */
  version: string;
  /** This instance's start and uptime (each instance has its own). */
  startedAt: string;
  uptimeSeconds: number;
  generatedAt: string;
  /** Whether the figures could be read: false without a database, or while it cannot be reached. */
  ledger: boolean;
  probe: { enabled: boolean; intervalMs: number | null };
  models: ModelStatus[];
}

/** Most recent successful streams a model's percentiles are computed from. */
export const FIRST_TOKEN_SAMPLE = 2_000;

const iso = (at: number | undefined) => (at === undefined ? null : new Date(at).toISOString());
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

function figuresOf(buckets: readonly HealthBucket[], firstTokens: readonly number[]): WindowFigures {
  const sum = (pick: (bucket: HealthBucket) => number) => buckets.reduce((total, bucket) => total + pick(bucket), 0);
  const ok = sum((b) => b.ok);
  const limited = sum((b) => b.rateLimited);
  const failed = sum((b) => b.failed);
  const counted = ok + limited + failed;
  const rate = (part: number) => (counted === 0 ? null : round(part / counted, 4));
  const tokens = sum((b) => b.outputTokens);
  const ms = sum((b) => b.generationMs);
  const p50 = percentile(firstTokens, 0.5);
  const p95 = percentile(firstTokens, 0.95);
  return {
    requests: sum((b) => b.requests),
    counted,
    successRate: rate(ok),
    rateLimitedRate: rate(limited),
    upstreamErrorRate: rate(failed),
    firstTokenMs:
      p50 === undefined || p95 === undefined ? null : { p50: Math.round(p50), p95: Math.round(p95), samples: firstTokens.length },
    outputTokensPerSecond: ms > 0 ? round((tokens * 1000) / ms, 1) : null,
    probes: sum((b) => b.probes),
  };
}

function stateOf(hour: WindowFigures): ModelState {
  if (hour.successRate === null) return 'no-traffic';
  if (hour.successRate >= 0.95) return 'operational';
  return hour.successRate >= 0.5 ? 'degraded' : 'failing';
}

const latest = (values: ReadonlyArray<number | undefined>) =>
  values.reduce<number | undefined>((max, value) => (value !== undefined && (max === undefined || value > max) ? value : max), undefined);

/** A model with nothing to show: no ledger to read. */
export function unknownStatus(id: string): ModelStatus {
  const none = figuresOf([], []);
  return {
    id,
    state: 'no-traffic',
    windows: { hour: none, day: none, week: none },
    lastError: null,
    lastRequestAt: null,
    lastProbeAt: null,
  };
}

/** Every model's figures over the last hour, day and week, read from the ledger all instances write. */
export async function modelStatuses(db: StorageDb, models: readonly string[], probeCaller: string, now: number): Promise<ModelStatus[]> {
  // Newest first: bucket 0 is the last hour, 1 the rest of the day, 2 the rest of the week.
  const starts = STATUS_WINDOWS.map((window) => now - WINDOW_MS[window]);
  const buckets = await queryHealthBuckets(db, models, starts, probeCaller);
  const statuses: ModelStatus[] = [];
  for (const id of models) {
    const own = buckets.filter((bucket) => bucket.model === id);
    const lastFailureAt = latest(own.map((bucket) => bucket.lastFailureAt));
    const [sample, failure] = await Promise.all([
      own.some((bucket) => bucket.ok > 0) ? queryFirstTokenSample(db, id, starts[2] ?? 0, FIRST_TOKEN_SAMPLE) : Promise.resolve([]),
      lastFailureAt === undefined ? Promise.resolve(undefined) : queryFailureAt(db, id, lastFailureAt),
    ]);
    const windows = Object.fromEntries(
      STATUS_WINDOWS.map((window, index) => [
        window,
        figuresOf(
          own.filter((bucket) => bucket.bucket <= index),
          sample.filter((row) => row.at >= (starts[index] ?? 0)).map((row) => row.firstTokenMs),
        ),
      ]),
    ) as Record<StatusWindow, WindowFigures>;
    statuses.push({
      id,
      state: stateOf(windows.hour),
      windows,
      lastError:
        failure === undefined
          ? null
          : { code: failure.errorCode ?? `HTTP_${failure.status}`, status: failure.status, at: new Date(failure.at).toISOString() },
      lastRequestAt: iso(latest(own.map((bucket) => bucket.lastAt))),
      lastProbeAt: iso(latest(own.map((bucket) => bucket.lastProbeAt))),
    });
  }
  return statuses;
}
