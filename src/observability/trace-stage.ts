import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import { answeredAt, type Recorder, type RequestRecord } from '../usage/record-stage.js';
import type { UpstreamAttemptMetric, UpstreamObserver } from './upstream-observer.js';

/** The instrumentation scope the gateway's spans carry. */
export const TRACER_NAME = 'switchyard-gateway';

/** `gen_ai.operation.name` of every generation request: all three protocols are chat. */
const OPERATION = 'chat';

function put(attributes: Attributes, name: string, value: string | number | boolean | readonly string[] | undefined): void {
  if (value !== undefined) attributes[name] = value as Attributes[string];
}

/** A request's span attributes: the OpenTelemetry GenAI conventions, plus `switchyard.*` for what they do not name. */
export function spanAttributesOf(record: RequestRecord): Attributes {
  const attributes: Attributes = { 'gen_ai.operation.name': OPERATION };
  put(attributes, 'gen_ai.provider.name', record.provider);
  put(attributes, 'gen_ai.request.model', record.model);
  const { request, usage } = record;
  if (request !== undefined) {
    put(attributes, 'gen_ai.request.max_tokens', request.maxOutputTokens);
    put(attributes, 'gen_ai.request.temperature', request.sampling?.temperature);
    put(attributes, 'gen_ai.request.top_p', request.sampling?.topP);
    put(attributes, 'gen_ai.request.top_k', request.sampling?.topK);
    put(attributes, 'gen_ai.request.seed', request.sampling?.seed);
    put(attributes, 'gen_ai.request.presence_penalty', request.sampling?.presencePenalty);
    put(attributes, 'gen_ai.request.frequency_penalty', request.sampling?.frequencyPenalty);
    put(attributes, 'gen_ai.request.stop_sequences', request.stopSequences);
  }
  if (usage !== undefined) {
    put(attributes, 'gen_ai.usage.input_tokens', usage.inputTokens);
    put(attributes, 'gen_ai.usage.output_tokens', usage.outputTokens);
    put(attributes, 'gen_ai.usage.cache_read.input_tokens', usage.cachedInputTokens);
    put(attributes, 'gen_ai.usage.cache_creation.input_tokens', usage.cacheWriteTokens);
  }
  put(attributes, 'gen_ai.response.id', record.upstream?.requestId);
  put(attributes, 'error.type', record.errorCode);
  put(attributes, 'http.response.status_code', record.status);
  put(attributes, 'switchyard.request_id', record.requestId);
  put(attributes, 'switchyard.protocol', record.protocol);
  put(attributes, 'switchyard.stream', record.stream);
  put(attributes, 'switchyard.key_id', record.caller?.keyId);
  put(attributes, 'switchyard.deployment', record.deployment);
  put(attributes, 'switchyard.upstream_model', record.upstreamModel);
  put(attributes, 'switchyard.attempts', record.attempts);
  put(attributes, 'switchyard.first_token_ms', record.firstOutputMs);
  put(attributes, 'switchyard.overhead_ms', record.overheadMs);
  return attributes;
}

/** Requests whose attempts wait for their record at most; past it the oldest are dropped (a record always follows, so this only bounds a bug). */
const MAX_PENDING_REQUESTS = 10_000;

/** The traces: a "record" stage, and an upstream observer that keeps each timed attempt for its request's span. */
export interface TraceStage extends Recorder, UpstreamObserver {}

/** An attempt as a child span of the request's. */
function attemptSpan(
  tracer: Tracer,
  parent: Span,
  attempt: UpstreamAttemptMetric & { startedAt: number; durationMs: number },
  model: string | undefined,
): void {
  const attributes: Attributes = {
    'gen_ai.operation.name': OPERATION,
    'switchyard.deployment': attempt.deployment,
    'switchyard.outcome': attempt.outcome,
    'switchyard.retry': attempt.retry,
  };
  put(attributes, 'gen_ai.request.model', model);
  put(attributes, 'http.response.status_code', attempt.status);
  if (attempt.outcome !== 'ok') attributes['error.type'] = attempt.outcome;
  const span = tracer.startSpan(
    `${OPERATION} ${attempt.deployment}`,
    { kind: SpanKind.CLIENT, startTime: attempt.startedAt, attributes },
    trace.setSpan(context.active(), parent),
  );
  if (attempt.outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: attempt.outcome });
  span.end(attempt.startedAt + attempt.durationMs);
}

/**
 * Traces each generation request as one span, `chat <model>`, from its arrival to the end of its
 * answer, child of the span active where the request was handled (the host app's HTTP span); each
 * upstream attempt the router reports with its request id and timing is a `CLIENT` child span of
 * it. Only `@opentelemetry/api`: without an SDK registered, spans go nowhere.
 */
export function createTraceStage(tracer: Tracer = trace.getTracer(TRACER_NAME)): TraceStage {
  const pending = new Map<string, (UpstreamAttemptMetric & { startedAt: number; durationMs: number })[]>();
  return {
    upstreamAttempt(attempt) {
      const { requestId, startedAt, durationMs } = attempt;
      if (requestId === undefined || startedAt === undefined || durationMs === undefined) return;
      const attempts = pending.get(requestId);
      if (attempts !== undefined) attempts.push({ ...attempt, startedAt, durationMs });
      else {
        if (pending.size >= MAX_PENDING_REQUESTS) pending.delete(pending.keys().next().value!);
        pending.set(requestId, [{ ...attempt, startedAt, durationMs }]);
      }
    },
    cooldown() {},
    // Its span's parent is the span active where the request was handled.
    inRequestContext: true,
    record(record) {
      const span = tracer.startSpan(
        record.model === undefined ? OPERATION : `${OPERATION} ${record.model}`,
        { kind: SpanKind.SERVER, startTime: record.startedAt, attributes: spanAttributesOf(record) },
        context.active(),
      );
      const attempts = pending.get(record.requestId);
      if (attempts !== undefined) {
        pending.delete(record.requestId);
        for (const attempt of attempts) attemptSpan(tracer, span, attempt, record.model);
      }
      // The caller's own mistakes (4xx) are not the gateway's errors; upstream failures and in-band stream errors are.
      if (record.status >= 500 || (record.status < 400 && record.errorCode !== undefined)) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: record.errorCode ?? String(record.status) });
      }
      span.end(answeredAt(record));
    },
  };
}
