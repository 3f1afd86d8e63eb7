import type { IncomingHttpHeaders } from 'node:http';
import { Pool, errors as undiciErrors } from 'undici';
import { GatewayError, type GatewayErrorInit, streamEndedEarly } from '../../canonical/index.js';
import type { SseMessage } from '../../sse/format-sse.js';
import { DEFAULT_MAX_ANSWER_BYTES } from './answer-limits.js';
import { collectAnswer, type CollectedAnswer } from './collect-answer.js';
import { SseAnswer } from './sse-answer.js';
import { RequestAbort } from './cancellation.js';
import { readRetryAfter } from './retry-after.js';
import { readUpstreamInfo } from './upstream-info.js';
import { upstreamHeaderList } from './upstream-headers.js';
import { UpstreamRedactor } from './upstream-redactor.js';
import { describeBrokenAnswer, describeConnectFailure } from './connect-failure.js';
import type { UpstreamResponseInfo } from '../types.js';

/** Turns an upstream error answer into the one GatewayError; each protocol reads its own error body. */
export type UpstreamErrorParser = (status: number, body: unknown, headers: IncomingHttpHeaders) => GatewayError;

export interface UpstreamOptions {
  /** The provider's name (its adapter id): what messages call it instead of its address. */
  name: string;
  /** Base URL including any path prefix, e.g. `https://api.openai.com/v1`. */
  baseURL: string;
  /** Headers sent on every call (auth, versions). */
  headers: Record<string, string>;
  /** Query parameters added to every call (Azure `api-version`). */
  query?: Record<string, string>;
  parseError: UpstreamErrorParser;
  /** Longest wait for the answer's headers. Default 10 minutes: long prompts take a while to start. */
  headersTimeoutMs?: number;
  /** Longest silence between two body chunks. Default 5 minutes. */
  bodyTimeoutMs?: number;
  /** How long the end of a stream may take after its final event was read, before the connection is closed rather than reused. Default 2 s. */
  drainMs?: number;
  /**
   * Most connections to the upstream at once. HTTP/1.1 carries one call per connection and a stream
   * holds its connection until it ends, so a limit also caps the streams in flight. Default: none.
   */
  connections?: number;
  /**
   * Largest answer read: a whole non-streamed answer, or one event of a stream. Past it the call
   * fails with a 502 rather than holding the bytes. Default 64 MiB.
   */
  maxAnswerBytes?: number;
}

export interface UpstreamCall {
  path: string;
  body: unknown;
  /** The request's cancellation: an AbortSignal, or the gateway's cheaper RequestAbort emitter. */
  signal: AbortSignal | RequestAbort;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
  /** Extra query parameters for this call (Gemini `alt=sse`). */
  query?: Record<string, string>;
  /** Told how the upstream answered (`ProviderContext.reportUpstream`); nothing is read for it when absent. */
  report?: ((info: UpstreamResponseInfo) => void) | undefined;
}

/** An upstream's SSE answer, message by message. */
export interface UpstreamSse extends AsyncIterable<SseMessage> {
  /** Every message parsed and not yet read, at once; undefined once the answer has ended. */
  nextBatch(): Promise<SseMessage[] | undefined>;
  /** Stops reading: drains the rest for reuse after `complete()`, else closes the connection. */
  return(): Promise<IteratorResult<SseMessage>>;
  /**
   * Marks the answer complete (its final event was read). A reader that stops after this leaves
   * the rest of the body to be drained so the connection is reused; one that stops without it (an
   * in-band error, a client gone) closes the connection.
   */
  complete(): void;
}

/** An upstream HTTP API: one keep-alive undici Pool per origin, JSON and SSE calls. */
export interface Upstream {
  postJson(call: UpstreamCall): Promise<unknown>;
  /** `postJson`, with the body's text as it came (for an answer passed through). */
  postJsonText(call: UpstreamCall): Promise<{ body: unknown; text: string }>;
  postSse(call: UpstreamCall): Promise<UpstreamSse>;
  close(): Promise<void>;
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Network failures and timeouts as GatewayErrors; an abort stays an abort. `answering`: the answer
 * had begun (its headers came), so a lost connection broke it off rather than kept it from coming.
 */
function transportError(error: unknown, name: string, answering = false): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  if (error instanceof undiciErrors.RequestAbortedError || (error as Error | undefined)?.name === 'AbortError') {
    return new GatewayError({ code: 'REQUEST_ABORTED', message: 'The request was cancelled.', cause: error });
  }
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return new GatewayError({ code: 'UPSTREAM_TIMEOUT', message: `The provider '${name}' did not answer in time.`, cause: error });
  }
  if (answering) {
    return streamEndedEarly(`The provider '${name}' broke off its answer before it was finished: ${describeBrokenAnswer(error)}.`, error);
  }
  return new GatewayError({
    code: 'UPSTREAM_UNREACHABLE',
    message: `The provider '${name}' could not be reached: ${describeConnectFailure(error)}.`,
    cause: error,
  });
}

/** `error` with some of its fields changed. */
function rebuilt(error: GatewayError, changes: Partial<GatewayErrorInit>): GatewayError {
  return new GatewayError({
    kind: error.kind,
    code: error.code,
    status: error.status,
    message: error.message,
    param: error.param,
    retryable: error.retryable,
    ...(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter }),
    cause: error.cause,
    ...changes,
  });
}

/**
 * The error of an upstream's error answer as the caller sees it. A 401 or 403 (or the provider's
 * way of saying its key is wrong) is about the gateway's credentials, never the caller's: it
 * becomes a 502, so a client does not tell its user that their key is wrong. The upstream's
 * `retry-after` is kept.
 */
function answerError(
  error: GatewayError,
  status: number,
  headers: IncomingHttpHeaders,
  redactor: UpstreamRedactor,
  name: string,
): GatewayError {
  const changes: Partial<GatewayErrorInit> = {};
  const retryAfter = readRetryAfter(headers);
  if (retryAfter !== undefined && error.retryAfter === undefined) changes.retryAfter = retryAfter;
  const refused = status === 401 || status === 403 || error.kind === 'authentication' || error.kind === 'permission';
  if (refused) {
    const credentials = status === 401 || error.kind === 'authentication';
    Object.assign(changes, {
      kind: 'upstream',
      status: 502,
      code: credentials ? 'UPSTREAM_AUTHENTICATION_FAILED' : 'UPSTREAM_PERMISSION_DENIED',
      retryable: false,
      message: `The provider '${name}' refused the gateway's ${credentials ? 'credentials' : 'access'} (HTTP ${status}); the gateway's operator must fix its provider settings. The provider said: ${redactor.cleanMessage(error.message)}`,
    } satisfies Partial<GatewayErrorInit>);
  } else {
    const message = redactor.cleanMessage(error.message);
    if (message !== error.message) changes.message = message;
  }
  return Object.keys(changes).length === 0 ? error : rebuilt(error, changes);
}

/**
 * Creates the HTTP side of an adapter. Uses undici's dispatcher API (not `fetch`, which costs
 * several times the CPU per call) with keep-alive connections.
 */
export function createUpstream(options: UpstreamOptions): Upstream {
  const base = new URL(options.baseURL);
  const drainMs = options.drainMs ?? 2_000;
  const { name } = options;
  const maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const redactor = new UpstreamRedactor(name, base, options.headers, options.query);
  const failed = (error: unknown, answering?: boolean) => transportError(error, name, answering);
  const errorOf = (status: number, text: string, headers: IncomingHttpHeaders) =>
    answerError(options.parseError(status, parseBody(redactor.cleanErrorText(text)), headers), status, headers, redactor, name);
  const prefix = base.pathname.replace(/\/$/, '');
  const pool = new Pool(base.origin, {
    connections: options.connections ?? null,
    headersTimeout: options.headersTimeoutMs ?? 600_000,
    bodyTimeout: options.bodyTimeoutMs ?? 300_000,
    keepAliveTimeout: 30_000,
  });

  // Computed once: most calls add no query and no headers of their own.
  const search = (query: Record<string, string> | undefined) =>
    query === undefined || Object.keys(query).length === 0 ? '' : `?${new URLSearchParams(query).toString()}`;
  const fixedSearch = search(options.query);
  const jsonHeaders = upstreamHeaderList(options.headers, undefined, 'application/json');
  const sseHeaders = upstreamHeaderList(options.headers, undefined, 'text/event-stream');

  function pathOf(call: UpstreamCall): string {
    return `${prefix}${call.path}${call.query === undefined ? fixedSearch : search({ ...options.query, ...call.query })}`;
  }

  function headersOf(call: UpstreamCall, accept: string): string[] {
    if (call.headers !== undefined) return upstreamHeaderList(options.headers, call.headers, accept);
    return accept === 'text/event-stream' ? sseHeaders : jsonHeaders;
  }

  const post = (call: UpstreamCall, accept: string) => {
    // A call the gateway's deadline watches (connect, first output, idle, total: all finite) needs
    // no headers or body timer from undici. Each would be a fast timer made anew per request that
    // stays in undici's list up to a second after it is cleared: promoted to the old generation,
    // it brought a full collection every second or two under load (docs/performance.md).
    const unwatched = !(call.signal instanceof RequestAbort) || call.signal.watch === undefined;
    return {
      method: 'POST' as const,
      path: pathOf(call),
      headers: headersOf(call, accept),
      body: JSON.stringify(call.body),
      headersTimeout: unwatched ? undefined : 0,
      bodyTimeout: unwatched ? undefined : 0,
    };
  };

  const rethrowFailed = (error: unknown): never => {
    throw failed(error);
  };

  /**
   * A JSON call's answer, collected whole, then read by `read`: one promise per call, not an async
   * frame per layer (hot-path rule 2, docs/architecture.md#hot-path-rules).
   */
  function postForJson<T>(call: UpstreamCall, read: (text: string) => T): Promise<T> {
    let collecting: Promise<CollectedAnswer>;
    try {
      collecting = collectAnswer(pool, post(call, 'application/json'), call.signal, maxAnswerBytes);
    } catch (error) {
      return Promise.reject(failed(error));
    }
    return collecting.then((answer) => {
      call.report?.(readUpstreamInfo(answer.status, answer.headers));
      if (answer.status >= 400) throw errorOf(answer.status, answer.text, answer.headers);
      return read(redactor.hasSecrets ? redactor.maskSecrets(answer.text) : answer.text);
    }, rethrowFailed);
  }

  return {
    postJson: (call) => postForJson(call, parseBody),
    postJsonText: (call) => postForJson(call, (text) => ({ body: parseBody(text), text })),

    async postSse(call) {
      const answer = new SseAnswer(call.signal, { drainMs, maxEventBytes: maxAnswerBytes, redactor }, failed);
      pool.dispatch(post(call, 'text/event-stream'), answer);
      const head = await answer.head;
      call.report?.(readUpstreamInfo(head.status, head.headers));
      if (head.errorText !== undefined) throw errorOf(head.status, head.errorText, head.headers);
      return answer;
    },

    close: () => pool.close(),
  };
}
