import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Tracer } from '@opentelemetry/api';
import type { RecordStage, RequestRecord } from '../usage/record-stage.js';

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

/**
 * The "record" stage that traces each generation request as one span, `chat <model>`, from its
 * arrival to the end of its answer, child of the span active where the request was handled (the
 * host app's HTTP span). Only `@opentelemetry/api`: without an SDK registered, spans go nowhere.
 */
export function createTraceStage(tracer: Tracer = trace.getTracer(TRACER_NAME)): RecordStage {
  return {
    record(record) {
      const span = tracer.startSpan(
        record.model === undefined ? OPERATION : `${OPERATION} ${record.model}`,
        { kind: SpanKind.SERVER, startTime: record.startedAt, attributes: spanAttributesOf(record) },
        context.active(),
      );
      // The caller's own mistakes (4xx) are not the gateway's errors; upstream failures and in-band stream errors are.
      if (record.status >= 500 || (record.status < 400 && record.errorCode !== undefined)) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: record.errorCode ?? String(record.status) });
      }
      span.end(record.startedAt + record.durationMs);
    },
  };
}
