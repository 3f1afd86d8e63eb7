import type { RateLimitState } from './rate-limit-state.js';
import { errorCodes, type ErrorCode, type ErrorCodeEntry, type GatewayErrorKind, type UnregisteredErrorCode } from './error-codes.js';

export type { GatewayErrorKind } from './error-codes.js';

interface GatewayErrorFields {
  message: string;
  /** The request field at fault, as the caller's protocol names it. */
  param?: string;
  /** Seconds the caller should wait before retrying. */
  retryAfter?: number;
  /** The limits' standing, sent as the protocol's rate-limit headers with the error (a 429 from a limit). */
  rateLimit?: RateLimitState;
  cause?: unknown;
}

/**
 * A registered code takes its kind, status and retryability from the registry (error-codes.ts);
 * a throw site overrides one only where the same condition is answered differently and says why.
 * A code with no row (a provider's own, `upstreamErrorCode`; a stage's or adapter's,
 * `customErrorCode`) brings its kind.
 */
export type GatewayErrorInit =
  | (GatewayErrorFields & { code: ErrorCode; kind?: GatewayErrorKind; status?: number; retryable?: boolean })
  | (GatewayErrorFields & { code: ErrorCode | UnregisteredErrorCode; kind: GatewayErrorKind; status?: number; retryable?: boolean });

/** The status of a provider's own code, from its kind, when the provider gave none. */
const defaultStatus: Record<GatewayErrorKind, number> = {
  invalid_request: 400,
  authentication: 401,
  permission: 403,
  not_found: 404,
  rate_limit: 429,
  quota: 429,
  overloaded: 503,
  upstream: 502,
  timeout: 504,
  internal: 500,
};

const marker = Symbol.for('switchyard.GatewayError');

/** Longest message and `param` an error keeps: both may carry text a caller or an upstream chose. */
const MESSAGE_MAX = 2_000;
const PARAM_MAX = 200;

const bounded = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}…`);

/** The one error type of Switchyard; each protocol renders it in its own error body. */
export class GatewayError extends Error {
  readonly kind: GatewayErrorKind;
  readonly code: ErrorCode | UnregisteredErrorCode;
  readonly status: number;
  readonly param: string | undefined;
  readonly retryable: boolean;
  readonly retryAfter: number | undefined;
  readonly rateLimit: RateLimitState | undefined;
  readonly [marker] = true;

  constructor(init: GatewayErrorInit) {
    super(bounded(init.message, MESSAGE_MAX), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'GatewayError';
    const registered: ErrorCodeEntry | undefined = Object.hasOwn(errorCodes, init.code) ? errorCodes[init.code as ErrorCode] : undefined;
    this.kind = init.kind ?? registered?.kind ?? 'internal';
    // A site that answers a registered condition as another kind gets that kind's status and retryability.
    const row = registered?.kind === this.kind ? registered : undefined;
    this.code = init.code;
    this.status = init.status ?? row?.status ?? defaultStatus[this.kind];
    this.param = init.param === undefined ? undefined : bounded(init.param, PARAM_MAX);
    this.retryable =
      init.retryable ?? row?.retryable ?? (this.kind === 'rate_limit' || this.kind === 'overloaded' || this.kind === 'timeout');
    this.retryAfter = init.retryAfter;
    this.rateLimit = init.rateLimit;
  }

  /** True for any GatewayError, even one from another copy of this package. */
  static isInstance(value: unknown): value is GatewayError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
