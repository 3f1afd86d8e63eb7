import type { RateLimitState } from './rate-limit-state.js';

export type GatewayErrorKind =
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'rate_limit'
  /** A spend limit (a key's budget) is used up: not worth retrying until it resets. */
  | 'quota'
  | 'overloaded'
  | 'upstream'
  | 'timeout'
  | 'internal';

export interface GatewayErrorInit {
  kind: GatewayErrorKind;
  /** Stable SNAKE_CASE identifier for docs and tests, e.g. `UNKNOWN_MODEL`. */
  code: string;
  message: string;
  /** HTTP status; defaults from `kind`. */
  status?: number;
  /** The request field at fault, as the caller's protocol names it. */
  param?: string;
  retryable?: boolean;
  /** Seconds the caller should wait before retrying. */
  retryAfter?: number;
  /** The limits' standing, sent as the protocol's rate-limit headers with the error (a 429 from a limit). */
  rateLimit?: RateLimitState;
  cause?: unknown;
}

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
  readonly code: string;
  readonly status: number;
  readonly param: string | undefined;
  readonly retryable: boolean;
  readonly retryAfter: number | undefined;
  readonly rateLimit: RateLimitState | undefined;
  readonly [marker] = true;

  constructor(init: GatewayErrorInit) {
    super(bounded(init.message, MESSAGE_MAX), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'GatewayError';
    this.kind = init.kind;
    this.code = init.code;
    this.status = init.status ?? defaultStatus[init.kind];
    this.param = init.param === undefined ? undefined : bounded(init.param, PARAM_MAX);
    this.retryable =
      init.retryable ?? (init.kind === 'rate_limit' || init.kind === 'overloaded' || init.kind === 'timeout');
    this.retryAfter = init.retryAfter;
    this.rateLimit = init.rateLimit;
  }

  /** True for any GatewayError, even one from another copy of this package. */
  static isInstance(value: unknown): value is GatewayError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
