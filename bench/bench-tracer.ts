// A tracer for the bench's tracing row, written against `@opentelemetry/api` as an SDK's is: each
// span keeps its name, kind, times, status and attributes until it ends, then is counted and
// dropped. So the row measures what the gateway does to trace a request (its spans, their
// attributes, the context it starts them in); an SDK's own processing and export come on top of it
// and depend on the SDK. (The SDK's packages do not accept the `@opentelemetry/api` 1.10 the
// gateway depends on.)
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

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';

class BenchSpan implements Span {
  readonly #context: SpanContext;
  readonly #tracer: BenchTracer;
  name: string;
  readonly kind: number | undefined;
  readonly attributes: Attributes;
  readonly startTime: TimeInput | undefined;
  endTime: TimeInput | undefined;
  status: SpanStatus | undefined;

  constructor(tracer: BenchTracer, name: string, options: SpanOptions, spanId: string) {
    this.#tracer = tracer;
    this.#context = { traceId: TRACE_ID, spanId, traceFlags: 1 };
    this.name = name;
    this.kind = options.kind;
    this.attributes = { ...options.attributes };
    this.startTime = options.startTime;
  }

  spanContext(): SpanContext {
    return this.#context;
  }
  setAttribute(key: string, value: AttributeValue): this {
    this.attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Attributes): this {
    Object.assign(this.attributes, attributes);
    return this;
  }
  addEvent(): this {
    return this;
  }
  addLink(): this {
    return this;
  }
  addLinks(): this {
    return this;
  }
  setStatus(status: SpanStatus): this {
    this.status = status;
    return this;
  }
  updateName(name: string): this {
    this.name = name;
    return this;
  }
  end(endTime?: TimeInput): void {
    this.endTime = endTime;
    this.#tracer.ended += 1;
  }
  isRecording(): boolean {
    return true;
  }
  recordException(): void {}
}

export class BenchTracer implements Tracer {
  /** Spans ended so far. */
  ended = 0;
  #started = 0;

  startSpan(name: string, options: SpanOptions = {}, _context?: Context): Span {
    this.#started += 1;
    return new BenchSpan(this, name, options, this.#started.toString(16).padStart(16, '0'));
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...rest: unknown[]): ReturnType<F> {
    const fn = rest.at(-1) as F;
    const options = (typeof rest[0] === 'object' ? rest[0] : {}) as SpanOptions;
    return fn(this.startSpan(name, options)) as ReturnType<F>;
  }
}
