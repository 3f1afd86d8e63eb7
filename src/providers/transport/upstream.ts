import type { IncomingHttpHeaders } from 'node:http';
import { Pool, errors as undiciErrors } from 'undici';
import { GatewayError } from '../../canonical/index.js';
import type { SseMessage } from '../../sse/format-sse.js';
import { collectAnswer } from './collect-answer.js';
import { SseAnswer } from './sse-answer.js';
import type { RequestAbort } from './request-abort.js';
import { readRetryAfter } from './retry-after.js';
import { readUpstreamInfo } from './upstream-info.js';
import type { UpstreamResponseInfo } from '../types.js';

/** Turns an upstream error answer into the one GatewayError; each protocol reads its own error body. */
export type UpstreamErrorParser = (status: number, body: unknown, headers: IncomingHttpHeaders) => GatewayError;

export interface UpstreamOptions {
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

/** Network failures and timeouts as GatewayErrors; an abort stays an abort. */
function transportError(error: unknown, origin: string): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  if (error instanceof undiciErrors.RequestAbortedError || (error as Error | undefined)?.name === 'AbortError') {
    return new GatewayError({ kind: 'timeout', code: 'REQUEST_ABORTED', status: 499, message: 'The request was cancelled.', cause: error });
  }
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return new GatewayError({ kind: 'timeout', code: 'UPSTREAM_TIMEOUT', message: `The provider at ${origin} did not answer in time.`, cause: error });
  }
  return new GatewayError({
    kind: 'upstream',
    code: 'UPSTREAM_UNREACHABLE',
    retryable: true,
    message: `The provider at ${origin} could not be reached.`,
    cause: error,
  });
}

function withRetryAfter(error: GatewayError, headers: IncomingHttpHeaders): GatewayError {
  const retryAfter = readRetryAfter(headers);
  if (retryAfter === undefined || error.retryAfter !== undefined) return error;
  return new GatewayError({
    kind: error.kind,
    code: error.code,
    status: error.status,
    message: error.message,
    param: error.param,
    retryable: error.retryable,
    retryAfter,
    cause: error.cause,
  });
}

/**
 * Creates the HTTP side of an adapter. Uses undici's dispatcher API (not `fetch`, which costs
 * several times the CPU per call) with keep-alive connections.
 */
export function createUpstream(options: UpstreamOptions): Upstream {
  const base = new URL(options.baseURL);
  const drainMs = options.drainMs ?? 2_000;
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
  const fixedHeaders = (accept: string) => ({ ...options.headers, 'content-type': 'application/json', accept });
  const jsonHeaders = fixedHeaders('application/json');
  const sseHeaders = fixedHeaders('text/event-stream');

  function pathOf(call: UpstreamCall): string {
    return `${prefix}${call.path}${call.query === undefined ? fixedSearch : search({ ...options.query, ...call.query })}`;
  }

  function headersOf(call: UpstreamCall, accept: string): Record<string, string> {
    const fixed = accept === 'text/event-stream' ? sseHeaders : jsonHeaders;
    return call.headers === undefined ? fixed : { ...options.headers, ...call.headers, 'content-type': 'application/json', accept };
  }

  const post = (call: UpstreamCall, accept: string) => ({
    method: 'POST' as const,
    path: pathOf(call),
    headers: headersOf(call, accept),
    body: JSON.stringify(call.body),
  });

  async function postJsonText(call: UpstreamCall): Promise<{ body: unknown; text: string }> {
    let answer;
    try {
      answer = await collectAnswer(pool, post(call, 'application/json'), call.signal);
    } catch (error) {
      throw transportError(error, base.origin);
    }
    call.report?.(readUpstreamInfo(answer.status, answer.headers));
    const body = parseBody(answer.text);
    if (answer.status >= 400) throw withRetryAfter(options.parseError(answer.status, body, answer.headers), answer.headers);
    return { body, text: answer.text };
  }

  return {
    postJson: async (call) => (await postJsonText(call)).body,
    postJsonText,

    async postSse(call) {
      const answer = new SseAnswer(call.signal, drainMs, (error) => transportError(error, base.origin));
      pool.dispatch(post(call, 'text/event-stream'), answer);
      const head = await answer.head;
      call.report?.(readUpstreamInfo(head.status, head.headers));
      if (head.errorText !== undefined) {
        throw withRetryAfter(options.parseError(head.status, parseBody(head.errorText), head.headers), head.headers);
      }
      return answer;
    },

    close: () => pool.close(),
  };
}
