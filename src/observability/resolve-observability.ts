import type { Tracer } from '@opentelemetry/api';
import { pino } from 'pino';
import type { PriceUsage } from '../usage/ledger-stage.js';
import type { RecordStage } from '../usage/record-stage.js';
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
  readonly stages: readonly RecordStage[];
  readonly metrics: GatewayMetrics | undefined;
  /** Where the router reports upstream attempts and cooldowns: the metrics and traces that are on, or nothing. */
  readonly upstream: UpstreamObserver;
}

/** The request log's default logger: JSON lines on stdout, `level` as a word and `time` in ISO 8601, as the gateway's other lines. */
export function createJsonLineLogger(level: string = 'info', destination?: { write(text: string): unknown }): RequestLogger {
  const settings = { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label: string) => ({ level: label }) } };
  return destination === undefined ? pino(settings) : pino(settings, destination);
}

const isLogger = (value: object): value is RequestLogger => typeof (value as { info?: unknown }).info === 'function';

function requestLogStage(option: ObservabilityOptions['requestLog'], price: PriceUsage | undefined): RecordStage | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return createRequestLogStage({ logger: createJsonLineLogger(), price });
  if (isLogger(option)) return createRequestLogStage({ logger: option, price });
  return createRequestLogStage({ logger: option.logger ?? createJsonLineLogger(), price, prompts: option.prompts });
}

/** The stages and registry the operator's options turn on. */
export function resolveObservability(options: ObservabilityOptions, sources: MetricSources): ResolvedObservability {
  const stages: RecordStage[] = [];
  const metrics = options.metrics === undefined || options.metrics === false ? undefined : createGatewayMetrics(sources, options.metrics === true ? {} : options.metrics);
  if (metrics !== undefined) stages.push(metrics.stage);
  const log = requestLogStage(options.requestLog, sources.price);
  if (log !== undefined) stages.push(log);
  const observers: UpstreamObserver[] = metrics === undefined ? [] : [metrics];
  const { tracing } = options;
  if (tracing !== undefined && tracing !== false) {
    const traces = createTraceStage(tracing === true ? undefined : tracing.tracer);
    stages.push(traces);
    observers.push(traces);
  }
  return { stages, metrics, upstream: observeEach(observers) };
}
