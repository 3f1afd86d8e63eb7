import type {
  ApiFields,
  CanonicalRequest,
  CanonicalResponse,
  CanonicalStreamEvent,
  GatewayError,
  ProtocolName,
  RelayBatch,
} from '../canonical/index.js';
import type { SseMessage } from '../sse/format-sse.js';

/** What an encoder needs to know about the exchange it is answering. */
export interface EncodeContext {
  /** The gateway's request id, `req_…`; encoders derive wire ids from it when the provider gave none in their format. */
  requestId: string;
  /** Unix seconds, from the gateway's clock (encoders never read the clock). */
  created: number;
  /** The decoded request being answered (model id as the caller sent it, include-usage flag, tools). */
  request: CanonicalRequest;
}

/** Turns canonical stream events into wire text, one event at a time. Holds per-stream state. */
export interface StreamEncoder {
  /** The SSE text for this event; '' when the event adds nothing on this wire. */
  encode(event: CanonicalStreamEvent): string;
}

/** An error rendered in a protocol's own body. */
export interface RenderedError {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** The inbound side of a protocol: a client calls the gateway in it. */
export interface InboundCodec {
  readonly protocol: ProtocolName;
  /** Wire body → canonical request. Throws GatewayError (`invalid_request`, `param` set) on a bad body. */
  decodeRequest(body: unknown): CanonicalRequest;
  encodeResponse(response: CanonicalResponse, context: EncodeContext): unknown;
  createStreamEncoder(context: EncodeContext): StreamEncoder;
  renderError(error: GatewayError, requestId: string): RenderedError;
  /**
   * Top-level wire fields that are hints only (caching, storage, telemetry): safe to leave
   * behind when the provider does not speak this protocol. Any other field that the decoder
   * kept in `extensions[protocol]` changes the answer, so carrying it elsewhere is a 400.
   */
  readonly hintFields: ReadonlySet<string>;
  /**
   * Every top-level field the protocol defines, and how it says the other APIs' fields. A field
   * the decoder kept that is not among them is a typo or another API's field: where it cannot be
   * passed through, the 400 says so (`unknownFieldError`) rather than blaming the model.
   */
  readonly fields: ApiFields;
}

/** Turns an upstream's SSE messages into canonical events, one message at a time. Holds per-stream state. */
export interface StreamDecoder {
  /** The events this message completes ([] when none). */
  decode(message: SseMessage): CanonicalStreamEvent[];
  /** The events owed when the upstream closes the stream: a finish, or an error if it was cut short. */
  end(): CanonicalStreamEvent[];
}

/**
 * Passes an upstream's stream through to a caller who speaks the same protocol (DESIGN: the
 * same-protocol fast path): each message goes out as it came, but for the model id the caller
 * named, while the messages that matter to the gateway (start, first output, finish and usage,
 * errors) are decoded. Holds per-stream state.
 */
export interface StreamRelay {
  /** This message's frame for the caller ('' when it is dropped) and the events it stands for. */
  relay(message: SseMessage): RelayBatch;
  /** What is owed when the upstream closes the stream: the in-band error if it was cut short. */
  end(): RelayBatch;
  /** The in-band error frame for a failure after the stream began, continuing the stream. */
  fail(error: GatewayError): string;
}
