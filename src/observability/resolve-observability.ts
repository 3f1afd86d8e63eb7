import type { Tracer } from '@opentelemetry/api';
import { pino } from 'pino';
import { BatchedLines, type LineDestination } from './batched-lines.js';
import type { PriceUsage } from '../usage/ledger-stage.js';
import type { Recorder } from '../usage/record-stage.js';
import { createGatewayMetrics, type GatewayMetrics, type MetricSources, type MetricsOptions } from './gateway-metrics.js';
import type { PromptLogging } from './prompt-summary.js';
import { createRequestLogStage, type RequestLogger } from './request-log-stage.js';
import { createTraceStage } from './trace-stage.js';
import { observeEach, type UpstreamObserver } from './upstream-observer.js';

/** The `requestLog` option in its long form. */
export interface RequestLogOptions {
  /** Where the lines go: a pino logger (the host app's). Default: JSON lines on stdout. */
  logger?: RequestLogger;
  /**
   * Whether a line shows the prompt: `'lengths'` each message's role and size only (redacted: nothing
   * the caller wrote), `'text'` the text too, key-like strings masked, cut at 2 000 characters per
   * message. Default: no prompt.
   */
  prompts?: PromptLogging;
  /** A file the lines are appended to instead of stdout (created with its folders); ignored with `logger`. */
  file?: string;
  /**
   * How long a line written to stdout or `file` may wait to share one write with others, in ms:
   * under load one write then carries many requests' lines. Default 10.
   */
  flushMs?: number;
  /**
   * Where the JSON lines are written instead of stdout: a writable stream, or anything with
   * `write(text)` (each line is a string ending in a newline). Ignored with `logger`; wins over `file`.
   */
  destination?: LineDestination;
}

/** The `tracing` option in its long form. */
export interface TracingOptions {
  /** The tracer spans come from. Default: `trace.getTracer('switchyard-gateway')` of the registered provider. */
  tracer?: Tracer;
}

/** The operator's options of `gateway()`. */
export interface ObservabilityOptions {
  /**
   * One line per generation request (`msg: "request"`): `true` for JSON lines on stdout, a pino
   * logger to write to it, or `{ logger, prompts }`. Default `false`: no request lines.
   */
  requestLog?: boolean | RequestLogger | RequestLogOptions | undefined;
  /** Prometheus metrics in the gateway's own registry (`gateway.metrics`): `true`, or `{ keyLabels }`. Default `false`. */
  metrics?: boolean | MetricsOptions | undefined;
  /** OpenTelemetry spans (GenAI conventions) through `@opentelemetry/api`: `true`, or `{ tracer }`. Default `false`. */
  tracing?: boolean | TracingOptions | undefined;
}

export interface ResolvedObservability {
  /** The "record" stages of the request log, metrics and traces that are on. */
  readonly stages: readonly Recorder[];
  readonly metrics: GatewayMetrics | undefined;
  /** Where the router reports upstream attempts and cooldowns: the metrics and traces that are on, or nothing. */
  readonly upstream: UpstreamObserver;
  /** Writes what the default request log still holds (and closes its file). */
  close(): void;
}

/** JSON lines opened by the gateway (stdout or a file): ending it writes what it holds. */
export interface OpenedLines extends LineDestination {
  end(): void;
}

/**
 * Stdout (or `file`) for JSON lines: each turn's lines in one write (batched-lines.ts), through
 * pino's synchronous destination (sonic-boom, which retries a full pipe).
 */
export function openLines(file?: string, flushMs?: number): OpenedLines {
  return new BatchedLines(
    file === undefined ? pino.destination({ dest: 1, sync: true }) : pino.destination({ dest: file, sync: true, mkdir: true }),
    flushMs,
  );
}

const isLogger = (value: object): value is RequestLogger => typeof (value as { info?: unknown }).info === 'function';

/** The request log's stage, and the lines it opened (which the gateway's `close()` ends). */
function requestLogStage(
  option: ObservabilityOptions['requestLog'],
  price: PriceUsage | undefined,
): { stage: Recorder; opened?: OpenedLines } | undefined {
  if (option === undefined || option === false) return undefined;
  if (option !== true && isLogger(option)) return { stage: createRequestLogStage({ logger: option, price }) };
  const settings: RequestLogOptions = option === true ? {} : option;
  if (settings.logger !== undefined) return { stage: createRequestLogStage({ logger: settings.logger, price, prompts: settings.prompts }) };
  if (settings.destination !== undefined)
    return { stage: createRequestLogStage({ lines: settings.destination, price, prompts: settings.prompts }) };
  const opened = openLines(settings.file, settings.flushMs);
  return { stage: createRequestLogStage({ lines: opened, price, prompts: settings.prompts }), opened };
}

/** The stages and registry the operator's options turn on. */
export function resolveObservability(options: ObservabilityOptions, sources: MetricSources): ResolvedObservability {
  const stages: Recorder[] = [];
  const metrics =
    options.metrics === undefined || options.metrics === false
      ? undefined
      : createGatewayMetrics(sources, options.metrics === true ? {} : options.metrics);
  if (metrics !== undefined) stages.push(metrics.stage);
  const log = requestLogStage(options.requestLog, sources.price);
  if (log !== undefined) stages.push(log.stage);
  const observers: UpstreamObserver[] = metrics === undefined ? [] : [metrics];
  const { tracing } = options;
  if (tracing !== undefined && tracing !== false) {
    const traces = createTraceStage(tracing === true ? undefined : tracing.tracer);
    stages.push(traces);
    observers.push(traces);
  }
  return { stages, metrics, upstream: observeEach(observers), close: () => log?.opened?.end() };
}
