import type {
  CanonicalRequest,
  CanonicalResponse,
  CanonicalStreamEvent,
  ProtocolName,
  RelayBatches,
  RelayedAnswer,
} from '../canonical/index.js';
import type { Logger } from '../logger.js';
import type { ProviderSpecificationVersion } from './specification-version.js';
import type { UpstreamResponseInfo } from '../canonical/index.js';

export type { UpstreamResponseInfo } from '../canonical/index.js';

import type { ModelCapabilities } from '../canonical/index.js';

export type { ModelCapabilities } from '../canonical/index.js';

export type { Logger } from '../logger.js';

export interface ProviderContext {
  /**
   * Fires when the client disconnects or the gateway gives up; stop work and release the upstream.
   * A context copied with a spread must name it: `{ ...context, signal: context.signal, logger }`
   * (it is a getter, so a spread alone leaves it out).
   */
  readonly signal: AbortSignal;
  requestId: string;
  /** The model id the caller asked for; `request.model` is already the upstream model id. */
  gatewayModel: string;
  logger: Logger;
  /**
   * Caller headers a provider speaking the caller's protocol may pass on — today `anthropic-beta`
   * from Messages callers. Never credentials.
   */
  clientHeaders?: Readonly<Record<string, string>>;
  /**
   * Set when the gateway wants to know how the upstream answered: call it once per upstream
   * response (each retry's too) with its status, request id and rate-limit headers. Absent when
   * nobody listens, so an adapter does no work for it then. The built-in adapters report through
   * their transport.
   */
  reportUpstream?: (info: UpstreamResponseInfo) => void;
  /**
   * The most output tokens this request may ask of the model: its largest output, capped by what
   * remains of its context window after the input. Set when the model's limits are known; a
   * provider that must send an output limit the caller did not give (Anthropic `max_tokens`) uses it.
   */
  outputTokenLimit?: number;
}

/**
 * A provider adapter: turns canonical requests into calls to one upstream.
 *
 * Adapters throw `GatewayError` for failures; the gateway renders it in the caller's protocol.
 * A stream that fails before its first output event becomes an HTTP error status; after it,
 * an in-band error event.
 *
 * @example
 * const echo: ProviderAdapter = {
 *   id: 'echo',
 *   async generate(request) {
 *     return { id: 'echo-1', model: request.model, content: [{ type: 'text', text: 'hi' }],
 *              finishReason: { unified: 'stop' }, usage: {} };
 *   },
 *   async *stream(request, ctx) { ... },
 * };
 */
export interface ProviderAdapter {
  /**
   * The version of this interface the adapter is written for (as the AI SDK's
   * `specificationVersion`): the gateway refuses at start-up an adapter of a version it does not
   * speak (`CONFIG_PROVIDER_SPEC_VERSION`) rather than calling it wrongly. Absent: `'v1'`.
   */
  readonly specificationVersion?: ProviderSpecificationVersion;
  /** A short name for logs and errors, e.g. `openai`. */
  readonly id: string;
  /**
   * The wire protocol the upstream speaks, if it is one of the gateway's. When it equals the
   * caller's protocol, fields without a canonical home are carried in `extensions` instead of refused.
   */
  readonly protocol?: ProtocolName;
  /**
   * Whose model ids this adapter's upstream ids are, for the gateway's model catalog: `openai`,
   * `anthropic`, `google`, an OpenAI-compatible host with its own prices (`groq`, `together`,
   * `deepseek`, `openrouter`, `mistral`), or `open-models` (a server you run: no prices). Absent:
   * the catalog is not consulted (the mock, Azure deployments, custom adapters).
   */
  readonly modelCatalog?: string;
  /** What `model` (an upstream model id) accepts; missing fields fall back to the model config, then to "yes". */
  capabilities?(model: string): Partial<ModelCapabilities>;
  generate(request: CanonicalRequest, context: ProviderContext): Promise<CanonicalResponse>;
  /**
   * The answer as a stream of events. Any `AsyncIterable` works (an `async *stream()` generator);
   * returning an `EventBatches` (as the built-in adapters do) lets the gateway take the events of
   * one upstream read in one step.
   */
  stream(request: CanonicalRequest, context: ProviderContext): AsyncIterable<CanonicalStreamEvent>;
  /**
   * Optional fast path for a caller who speaks this adapter's `protocol` (DESIGN: same-protocol
   * pass-through): the upstream's stream goes to the caller as it came, but for the model id —
   * every answer snapshot names `answerModel`, the id the caller sent — while the gateway still
   * reads its start, first output, usage and errors. Used instead of `stream` when present and
   * the protocols match; the request is the same one `stream` would send.
   */
  relayStream?(request: CanonicalRequest, context: ProviderContext, answerModel: string): RelayBatches;
  /** `relayStream`'s counterpart for a non-streamed answer: the upstream's body, naming `answerModel`. */
  relayGenerate?(request: CanonicalRequest, context: ProviderContext, answerModel: string): Promise<RelayedAnswer>;
  /** Input tokens `request` would use (`POST /v1/messages/count_tokens`, `POST /v1/responses/input_tokens`). Without it the gateway estimates. */
  countTokens?(request: CanonicalRequest, context: ProviderContext): Promise<number>;
  /**
   * Releases what the adapter holds (upstream connections, timers). The gateway calls it once, from
   * `gateway().close()`, after the server stopped taking requests; no call comes after it.
   */
  close?(): Promise<void>;
}
