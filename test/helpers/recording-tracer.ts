import { trace } from '@opentelemetry/api';
import type {
  Attributes,
  AttributeValue,
  Context,
  Span,
  SpanContext,
  SpanOptions,
  SpanStatus,
  TimeInput,
  Tracer,
} from '@opentelemetry/api';

/** A span as the recording tracer kept it. */
export interface RecordedSpan {
  name: string;
  kind: number | undefined;
  attributes: Attributes;
  startTime: TimeInput | undefined;
  endTime: TimeInput | undefined;
  status: SpanStatus | undefined;
  ended: boolean;
  spanId: string;
  /** The span id of the span active in the context it was started in. */
  parentSpanId: string | undefined;
}

/**
 * A tracer written against `@opentelemetry/api`'s interfaces that keeps every span in memory: the
 * test double of the SDK a host app would register (the gateway depends on the API only).
 */
export function createRecordingTracer(): Tracer & { spans: RecordedSpan[] } {
  const spans: RecordedSpan[] = [];
  const startSpan = (name: string, options: SpanOptions = {}, parent?: Context): Span => {
    const spanId = (spans.length + 1).toString(16).padStart(16, '0');
    const parentSpanId = parent === undefined ? undefined : trace.getSpan(parent)?.spanContext().spanId;
    const recorded: RecordedSpan = {
      name,
      kind: options.kind,
      attributes: { ...options.attributes },
      startTime: options.startTime,
      endTime: undefined,
      status: undefined,
      ended: false,
      spanId,
      parentSpanId,
    };
    spans.push(recorded);
    const spanContext: SpanContext = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId, traceFlags: 1 };
    const span: Span = {
      spanContext: () => spanContext,
      setAttribute: (key: string, value: AttributeValue) => ((recorded.attributes[key] = value), span),
      setAttributes: (attributes: Attributes) => (Object.assign(recorded.attributes, attributes), span),
      addEvent: () => span,
      addLink: () => span,
      addLinks: () => span,
      setStatus: (status: SpanStatus) => ((recorded.status = status), span),
      updateName: (updated: string) => ((recorded.name = updated), span),
      end: (endTime?: TimeInput) => {
        recorded.endTime = endTime;
        recorded.ended = true;
      },
      isRecording: () => !recorded.ended,
      recordException: () => undefined,
    };
    return span;
  };
  const startActiveSpan = ((name: string, ...rest: unknown[]) => {
    const fn = rest[rest.length - 1] as (span: Span) => unknown;
    const options = rest.length > 1 ? (rest[0] as SpanOptions) : undefined;
    return fn(startSpan(name, options));
  }) as Tracer['startActiveSpan'];
  return { spans, startSpan, startActiveSpan };
}
