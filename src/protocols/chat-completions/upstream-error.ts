import {
  GatewayError,
  type GatewayErrorKind,
  upstreamErrorCode,
  type ErrorCode,
  type UnregisteredErrorCode,
} from '../../canonical/index.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (value === undefined || value === null) return undefined;
  return JSON.stringify(value);
}

/** FastAPI/pydantic `detail`: a string, or `[{loc, msg}]`. */
function detailText(detail: unknown): string | undefined {
  if (!Array.isArray(detail)) return asText(detail);
  const lines = detail.map((item) => {
    if (!isObject(item)) return asText(item) ?? '';
    const loc = Array.isArray(item.loc) ? `${item.loc.join('.')}: ` : '';
    return `${loc}${asText(item.msg) ?? JSON.stringify(item)}`;
  });
  return lines.join('; ') || undefined;
}

/** Proxies answer HTML: keep its text, shortened. */
function rawText(body: string): string | undefined {
  const text = body
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return undefined;
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

interface UpstreamErrorFields {
  message?: string;
  code?: string;
  param?: string;
}

/**
 * The error of any Chat upstream, in the order of openai-compatible.md §5: `body.error` object
 * (OpenAI, vLLM ≥0.10.1, Ollama, llama.cpp, Groq, OpenRouter, Azure) → `body.error` string
 * (LM Studio) → flat `body.message` (vLLM <0.10.1, Mistral) → `body.detail` (pydantic) → raw text.
 */
function readFields(body: unknown): UpstreamErrorFields {
  if (typeof body === 'string') return { message: rawText(body) };
  if (!isObject(body)) return {};
  const { error } = body;
  const source = isObject(error) ? error : body;
  const code = typeof source.code === 'string' ? source.code : undefined;
  const param = typeof source.param === 'string' ? source.param : undefined;
  const message = (isObject(error) ? asText(error.message) : asText(error)) ?? asText(body.message) ?? detailText(body.detail);
  return { message, code, param };
}

function kindOf(status: number): GatewayErrorKind {
  if (status === 401) return 'authentication';
  if (status === 402 || status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 408 || status === 504) return 'timeout';
  if (status === 429) return 'rate_limit';
  if (status === 503 || status === 529) return 'overloaded';
  if (status >= 500 || status === 409) return 'upstream';
  return 'invalid_request';
}

function defaultCode(status: number): ErrorCode | UnregisteredErrorCode {
  if (status === 401) return 'UPSTREAM_AUTHENTICATION_FAILED';
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 500) return 'UPSTREAM_ERROR';
  return upstreamErrorCode(`UPSTREAM_${kindOf(status)}`);
}

/**
 * An error answer of a Chat Completions upstream → the one GatewayError.
 *
 * The kind follows the HTTP status (never the body's `code`); the upstream's message is kept,
 * and a snake_case `code` from the body (`context_length_exceeded`, `insufficient_quota`) becomes
 * the GatewayError code in upper case, so a Chat caller sees the same code again. Retryable:
 * 408, 409, 429 (but not `insufficient_quota`), 5xx and 529. (The transport turns a 401 or 403,
 * the gateway's own key refused, into a 502 on every provider.)
 *
 * @example
 * parseChatError(429, { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } });
 * // → GatewayError { kind: 'rate_limit', status: 429, code: 'RATE_LIMIT_EXCEEDED', retryable: true }
 */
export function parseChatError(status: number, body: unknown): GatewayError {
  const fields = readFields(body);
  const upstreamCode = fields.code !== undefined && /^[a-z][a-z0-9_]*$/.test(fields.code) ? fields.code : undefined;
  const retryable = upstreamCode !== 'insufficient_quota' && (status === 408 || status === 409 || status === 429 || status >= 500);
  const message = fields.message ?? `The provider answered with status ${status} and no error message.`;
  return new GatewayError({
    kind: kindOf(status),
    code: upstreamCode === undefined ? defaultCode(status) : upstreamErrorCode(upstreamCode),
    status,
    message,
    ...(fields.param === undefined ? {} : { param: fields.param }),
    retryable,
    cause: body,
  });
}

/**
 * An error that arrived inside a 200 answer: a top-level `error` in a body or stream chunk
 * (OpenRouter, OpenAI in-stream errors) or a Groq `event: error` frame. Its status is the
 * error's numeric `code` or `status_code` when it reads as one, else 502.
 */
export function parseChatInBandError(body: unknown): GatewayError {
  const error = isObject(body) && isObject(body.error) ? body.error : {};
  const candidates = [error.status_code, error.status, error.code].map((value) => Number(value));
  const status = candidates.find((value) => Number.isInteger(value) && value >= 400 && value <= 599) ?? 502;
  return parseChatError(status, body);
}
