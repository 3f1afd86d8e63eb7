import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import { answeredAt, type Recorder, type RequestRecord } from '../usage/record-stage.js';
import type { UpstreamAttemptMetric, UpstreamObserver } from './upstream-observer.js';

/** The instrumentation scope the gateway's spans carry. */
export const TRACER_NAME = 'switchyard-gateway';

/** `gen_ai.operation.name` of every generation request: all three protocols are chat. */
const OPERATION = 'chat';

/**
 * A request's span attributes: the OpenTelemetry GenAI conventions, plus `switchyard.*` for what they
 * do not name; an attribute whose value is unknown is left out. Each is written under its own name
 * at its own line, not through a helper taking the name: a store at a computed name goes through
 * V8's slowest (megamorphic) path, about 150 instructions each, 20 times a request.
 */
export function spanAttributesOf(record: RequestRecord): Attributes {
  const attributes: Attributes = { 'gen_ai.operation.name': OPERATION };
  if (record.provider !== undefined) attributes['gen_ai.provider.name'] = record.provider;
  if (record.model !== undefined) attributes['gen_ai.request.model'] = record.model;
  const { request, usage } = record;
  if (request !== undefined) {
    if (request.maxOutputTokens !== undefined) attributes['gen_ai.request.max_tokens'] = request.maxOutputTokens;
    const { sampling } = request;
    if (sampling !== undefined) {
      if (sampling.temperature !== undefined) attributes['gen_ai.request.temperature'] = sampling.temperature;
      if (sampling.topP !== undefined) attributes['gen_ai.request.top_p'] = sampling.topP;
      if (sampling.topK !== undefined) attributes['gen_ai.request.top_k'] = sampling.topK;
      if (sampling.seed !== undefined) attributes['gen_ai.request.seed'] = sampling.seed;
      if (sampling.presencePenalty !== undefined) attributes['gen_ai.request.presence_penalty'] = sampling.presencePenalty;
      if (sampling.frequencyPenalty !== undefined) attributes['gen_ai.request.frequency_penalty'] = sampling.frequencyPenalty;
    }
    if (request.stopSequences !== undefined) attributes['gen_ai.request.stop_sequences'] = request.stopSequences;
  }
  if (usage !== undefined) {
    if (usage.inputTokens !== undefined) attributes['gen_ai.usage.input_tokens'] = usage.inputTokens;
    if (usage.outputTokens !== undefined) attributes['gen_ai.usage.output_tokens'] = usage.outputTokens;
    if (usage.cachedInputTokens !== undefined) attributes['gen_ai.usage.cache_read.input_tokens'] = usage.cachedInputTokens;
    if (usage.cacheWriteTokens !== undefined) attributes['gen_ai.usage.cache_creation.input_tokens'] = usage.cacheWriteTokens;
  }
  const upstreamId = record.upstream?.requestId;
  if (upstreamId !== undefined) attributes['gen_ai.response.id'] = upstreamId;
  if (record.errorCode !== undefined) attributes['error.type'] = record.errorCode;
  attributes['http.response.status_code'] = record.status;
  attributes['switchyard.request_id'] = record.requestId;
  attributes['switchyard.protocol'] = record.protocol;
  attributes['switchyard.stream'] = record.stream;
  const keyId = record.caller?.keyId;
  if (keyId !== undefined) attributes['switchyard.key_id'] = keyId;
  if (record.deployment !== undefined) attributes['switchyard.deployment'] = record.deployment;
  if (record.upstreamModel !== undefined) attributes['switchyard.upstream_model'] = record.upstreamModel;
  attributes['switchyard.attempts'] = record.attempts;
  if (record.firstOutputMs !== undefined) attributes['switchyard.first_token_ms'] = record.firstOutputMs;
  if (record.overheadMs !== undefined) attributes['switchyard.overhead_ms'] = record.overheadMs;
  return attributes;
}

/** Requests whose attempts wait for their record at most; past it the oldest are dropped (a record always follows, so this only bounds a bug). */
const MAX_PENDING_REQUESTS = 10_000;

/** The traces: a "record" stage, and an upstream observer that keeps each timed attempt for its request's span. */
export interface TraceStage extends Recorder, UpstreamObserver {}

/** An attempt the router timed for a request: one a child span can be made of. */
type TimedAttempt = UpstreamAttemptMetric & { readonly requestId: string; readonly startedAt: number; readonly durationMs: number };

function isTimed(attempt: UpstreamAttemptMetric): attempt is TimedAttempt {
  return attempt.requestId !== undefined && attempt.startedAt !== undefined && attempt.durationMs !== undefined;
}

/** An attempt as a child span of the request's. */
function attemptSpan(tracer: Tracer, parent: Span, attempt: TimedAttempt, model: string | undefined): void {
  const attributes: Attributes = {
    'gen_ai.operation.name': OPERATION,
    'switchyard.deployment': attempt.deployment,
    'switchyard.outcome': attempt.outcome,
    'switchyard.retry': attempt.retry,
  };
  if (model !== undefined) attributes['gen_ai.request.model'] = model;
  if (attempt.status !== undefined) attributes['http.response.status_code'] = attempt.status;
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
  const pending = new Map<string, TimedAttempt[]>();
  return {
    upstreamAttempt(attempt) {
      // Kept as reported, not copied: the router makes each attempt's object for its observers and keeps none.
      if (!isTimed(attempt)) return;
      const attempts = pending.get(attempt.requestId);
      if (attempts !== undefined) attempts.push(attempt);
      else {
        if (pending.size >= MAX_PENDING_REQUESTS) pending.delete(pending.keys().next().value!);
        pending.set(attempt.requestId, [attempt]);
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
