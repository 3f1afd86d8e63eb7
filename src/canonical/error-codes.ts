/**
 * Every error code the gateway answers with, in one table: a `GatewayError` takes a code from it
 * (or a provider's own code, see `upstreamErrorCode`), so a code can be neither misspelled nor
 * undocumented (test/readme-error-codes.test.ts checks the table against the errors doc).
 */

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

export interface ErrorCodeEntry {
  /** HTTP status of the answer (a throw site may differ only where it says why). */
  readonly status: number;
  readonly kind: GatewayErrorKind;
  /** Whether the caller may retry the same request (sent as `x-should-retry`). */
  readonly retryable: boolean;
  /** The `error.code` OpenAI's own API uses for this condition, when it has one; others go out lower-cased. */
  readonly openaiCode?: string;
  /** What happened. */
  readonly means: string;
  /** What the user should do about it. */
  readonly action: string;
}

const badRequest = { status: 400, kind: 'invalid_request', retryable: false } as const;
const unauthenticated = { status: 401, kind: 'authentication', retryable: false } as const;
const forbidden = { status: 403, kind: 'permission', retryable: false } as const;
const notFound = { status: 404, kind: 'not_found', retryable: false } as const;
const unavailable = { status: 503, kind: 'overloaded', retryable: true } as const;
const badGateway = { status: 502, kind: 'upstream', retryable: false } as const;
const retryableBadGateway = { status: 502, kind: 'upstream', retryable: true } as const;
const upstreamTimeout = { status: 504, kind: 'timeout', retryable: true } as const;
/** A configuration (or command-line) problem: thrown at start-up, never answered to a request. */
const config = { status: 500, kind: 'internal', retryable: false } as const;

export const errorCodes = {
  // The request itself
  INVALID_JSON: { ...badRequest, means: 'The body is not valid JSON.', action: 'Send a JSON body.' },
  INVALID_REQUEST_BODY: {
    ...badRequest,
    means: 'A field of the body has the wrong type or value (`param` names it).',
    action: 'Fix the named field.',
  },
  MISSING_BODY: { ...badRequest, means: 'The request has no JSON body.', action: 'Send a JSON body.' },
  UNREADABLE_BODY: {
    ...badRequest,
    means: 'The body could not be read (the connection broke while sending it).',
    action: 'Send the request again.',
  },
  MISSING_ANTHROPIC_VERSION: {
    ...badRequest,
    means: '`/v1/messages` without an `anthropic-version` header.',
    action: 'Send a dated `anthropic-version`, e.g. 2023-06-01.',
  },
  INVALID_ANTHROPIC_VERSION: {
    ...badRequest,
    means: 'The `anthropic-version` header is not a dated version.',
    action: 'Send a dated `anthropic-version`, e.g. 2023-06-01.',
  },
  UNSUPPORTED_FEATURE: {
    ...badRequest,
    means: 'The request needs something the chosen model cannot do.',
    action: 'Drop the feature or choose a model that has it (the message names both).',
  },
  UNKNOWN_FIELD: {
    ...badRequest,
    means: "A field that is not part of the endpoint's API.",
    action: 'Fix the typo or use the field the message suggests.',
  },
  WRONG_ENDPOINT: { ...badRequest, means: 'A body written for another endpoint.', action: 'Send it to the endpoint the message names.' },
  CONTEXT_LENGTH_EXCEEDED: {
    ...badRequest,
    means: "The input alone is longer than the model's context window.",
    action: 'Shorten the input or choose a model with a larger window.',
  },
  JSON_TOO_DEEP: { ...badRequest, means: 'The body nests more than 100 levels deep.', action: 'Flatten the named field.' },
  REQUEST_POLICY_REFUSED: {
    ...badRequest,
    means: "The gateway's request policy refuses a field, tool, tool choice or beta.",
    action: 'Drop it, or have the operator allow it with the setting the message names.',
  },
  REQUEST_POLICY_OVER_CAP: { ...badRequest, means: 'Chat `n` is above `requestPolicy.maxChoices`.', action: 'Ask for fewer choices.' },
  MEDIA_FETCH_FAILED: {
    ...badRequest,
    means: 'A media URL could not be downloaded to send it inline (Gemini).',
    action: 'Send the file as base64 data.',
  },
  NO_DATABASE: { ...badRequest, means: 'Usage was asked of a gateway without a database.', action: 'Pass gateway({ database }).' },
  ADMIN_REQUEST_INVALID: { ...badRequest, means: 'An admin API request has a wrong field.', action: 'Fix the named field.' },
  TOKEN_REQUEST_INVALID: { ...badRequest, means: '`POST /v1/tokens` has a wrong field.', action: 'Fix the named field.' },
  REQUEST_TOO_LARGE: {
    status: 413,
    kind: 'invalid_request',
    retryable: false,
    means: 'The body is larger than `bodyLimit`.',
    action: 'Send less, or have the operator raise `bodyLimit`.',
  },
  UNSUPPORTED_ENCODING: {
    status: 415,
    kind: 'invalid_request',
    retryable: false,
    means: 'A body encoding or charset the gateway cannot read.',
    action: 'Send UTF-8 JSON, uncompressed or gzip/deflate/br.',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    kind: 'invalid_request',
    retryable: false,
    means: 'The path is served, but not with this method.',
    action: 'Use the method the endpoint takes (POST for generation).',
  },

  // Who is calling
  MISSING_API_KEY: {
    ...unauthenticated,
    means: 'No API key was read (none, or one sent where it is not read).',
    action: "Send 'Authorization: Bearer <key>' (or x-api-key on Messages).",
  },
  INVALID_API_KEY: {
    ...unauthenticated,
    openaiCode: 'invalid_api_key',
    means: 'The key is not a key of this gateway.',
    action: 'Use a key the operator gave you.',
  },
  DOUBLE_BEARER: {
    ...unauthenticated,
    means: "The header says 'Bearer Bearer …'.",
    action: "Give the key without the 'Bearer ' prefix to the client.",
  },
  API_KEY_REVOKED: { ...unauthenticated, means: 'The stored key was revoked.', action: 'Create a new key.' },
  ACCOUNT_DISABLED: {
    ...unauthenticated,
    means: "The key's console account was disabled by an admin.",
    action: 'Ask an admin of the gateway to enable the account.',
  },
  API_KEY_EXPIRED: { ...unauthenticated, means: 'The stored key has expired.', action: 'Create a new key.' },
  API_KEY_MISTYPED: {
    ...unauthenticated,
    means: 'The key has the `sk-sy-` form but is cut short or mistyped.',
    action: 'Copy the whole key again.',
  },
  TOKEN_EXPIRED: { ...unauthenticated, means: 'The browser token has expired.', action: 'Ask your server for a new token.' },
  INVALID_ADMIN_KEY: {
    ...unauthenticated,
    means: 'The admin API was called without the admin key.',
    action: "Send 'Authorization: Bearer <admin key>'.",
  },
  TOKEN_NEEDS_STORED_KEY: {
    ...forbidden,
    means: 'A browser token was asked for with a key that is not a stored key.',
    action: 'Mint tokens with a stored key (sk-sy-…) on your server.',
  },
  MODEL_NOT_ALLOWED: {
    ...forbidden,
    means: 'The key (or token) may not call the model.',
    action: 'Use a model the key allows, or widen the key.',
  },
  KEY_PAUSED: {
    ...forbidden,
    means: 'The stored key was paused after unusual spend (the gateway option `unusualSpend.pause`).',
    action: 'Ask an admin of the gateway to look at its last requests and lift the pause.',
  },
  MODEL_UNPRICED: {
    ...forbidden,
    means: 'A budgeted key called a model without a price.',
    action: 'Give the model a price, or use an unbudgeted key.',
  },
  HOST_NOT_ALLOWED: {
    ...forbidden,
    means: "The request's Host is not a name the server answers to.",
    action: 'Call the server by a name in `allowedHosts`.',
  },

  // Limits and budgets
  RATE_LIMITED: {
    status: 429,
    kind: 'rate_limit',
    retryable: true,
    openaiCode: 'rate_limit_exceeded',
    means: 'A limit of requests, tokens or concurrency was reached (the message names it).',
    action: 'Retry after `retry-after`.',
  },
  BUDGET_BUSY: {
    status: 429,
    kind: 'rate_limit',
    retryable: true,
    means: "The budget's room is held by requests under way.",
    action: 'Retry after `retry-after` (2 s).',
  },
  BALANCE_EXHAUSTED: {
    status: 429,
    kind: 'quota',
    retryable: false,
    means: "The account's balance cannot cover the request (the message names the account).",
    action: 'Top up the balance (an admin, or a redemption code in the console).',
  },
  BUDGET_EXCEEDED: {
    status: 429,
    kind: 'quota',
    retryable: false,
    openaiCode: 'insufficient_quota',
    means: "The key's budget cannot cover the request.",
    action: 'Wait for the reset the message names, or raise the budget.',
  },

  // Where the request went
  UNKNOWN_MODEL: {
    ...notFound,
    openaiCode: 'model_not_found',
    means: 'An unknown model, or one this server does not serve (the message says why).',
    action: 'Use the closest id the message suggests, or configure the model.',
  },
  DOUBLE_V1_PATH: {
    ...notFound,
    means: 'The base URL ends in /v1 and the client adds /v1 again (a 400 on Messages).',
    action: 'Use the base URL the message names.',
  },
  MISSING_V1_PATH: {
    ...notFound,
    means: 'The base URL lacks /v1 for a client that does not add it (a 400 on Messages).',
    action: 'Use the base URL the message names.',
  },
  ENDPOINT_NOT_SUPPORTED: {
    ...notFound,
    means: 'An OpenAI API the gateway does not offer (embeddings, audio, images, legacy completions).',
    action: 'Call that API at the provider directly.',
  },
  NOT_FOUND: { ...notFound, means: 'Nothing is served at the path.', action: 'Use one of the endpoints the message lists.' },
  ACCOUNT_NOT_FOUND: {
    ...notFound,
    means: 'No console account has the id or e-mail address (admin API, `switchyard accounts`).',
    action: 'Check the id or address.',
  },
  KEY_NOT_FOUND: { ...notFound, means: 'No active stored key has the public id.', action: 'List the keys for the right id.' },

  // Stores and the server
  KEY_STORE_UNAVAILABLE: { ...unavailable, means: 'A stored key is not cached and its store cannot be reached.', action: 'Retry shortly.' },
  BUDGET_UNAVAILABLE: { ...unavailable, means: "The budget's counters cannot be read.", action: 'Retry shortly.' },
  LIMITS_UNAVAILABLE: {
    ...unavailable,
    means: "The limits' store cannot be reached and `whenStoreDown` is 'closed'.",
    action: 'Retry shortly.',
  },
  DATABASE_CLOSED: {
    ...unavailable,
    means: 'The gateway was closed before its database opened.',
    action: 'Retry against a running server.',
  },
  SHUTTING_DOWN: { ...unavailable, means: 'The server is stopping.', action: 'Retry (another instance, or after the restart).' },
  STATUS_UNAVAILABLE: { ...unavailable, means: 'The status page cannot read the ledger.', action: 'Retry shortly.' },
  INTERNAL_ERROR: {
    status: 500,
    kind: 'internal',
    retryable: false,
    means: 'A bug in the gateway.',
    action: 'Report it with the request id the message quotes.',
  },
  REQUEST_ABORTED: {
    status: 499,
    kind: 'timeout',
    retryable: true,
    means: 'The caller cancelled the request (logged; the caller has left).',
    action: 'Nothing.',
  },

  // The provider
  UPSTREAM_UNREACHABLE: {
    ...retryableBadGateway,
    means: 'The provider could not be reached (refused, DNS, TLS, timeout).',
    action: "Check the provider's base URL and network; retry.",
  },
  STREAM_ENDED_EARLY: {
    ...retryableBadGateway,
    means: "The provider's stream stopped (or its connection was lost) before the answer was finished.",
    action: 'Retry.',
  },
  UPSTREAM_INVALID_RESPONSE: {
    ...retryableBadGateway,
    means: "The provider's answer is not what its API promises.",
    action: 'Retry; report it if it persists.',
  },
  UPSTREAM_INVALID_STREAM: {
    ...retryableBadGateway,
    means: "The provider's stream carried an event that cannot be read.",
    action: 'Retry; report it if it persists.',
  },
  UPSTREAM_GENERATION_FAILED: {
    ...retryableBadGateway,
    means: 'The provider stopped generating with an error finish reason.',
    action: 'Retry.',
  },
  UPSTREAM_ERROR: {
    ...retryableBadGateway,
    means: 'The provider failed without an error code of its own (its status is kept).',
    action: 'Retry.',
  },
  UPSTREAM_AUTHENTICATION_FAILED: {
    ...badGateway,
    means: "The provider refused the gateway's own credentials (its 401).",
    action: "The operator fixes the provider's API key.",
  },
  UPSTREAM_PERMISSION_DENIED: {
    ...badGateway,
    means: "The provider refused the gateway's credentials access (its 403).",
    action: "The operator fixes the provider's account or key permissions.",
  },
  UPSTREAM_ANSWER_TOO_LARGE: {
    ...badGateway,
    means: "The provider's answer (or one event) exceeds `maxAnswerBytes`.",
    action: 'Ask for less output, or have the operator raise `maxAnswerBytes`.',
  },
  UPSTREAM_TIMEOUT: {
    ...upstreamTimeout,
    means: "The provider's own `timeoutMs` passed.",
    action: 'Retry, or have the operator raise the limit.',
  },
  UPSTREAM_CONNECT_TIMEOUT: { ...upstreamTimeout, means: 'The provider did not answer within `timeouts.connectMs`.', action: 'Retry.' },
  UPSTREAM_FIRST_TOKEN_TIMEOUT: {
    ...upstreamTimeout,
    means: 'No output within `timeouts.firstTokenMs`.',
    action: 'Retry, or have the operator raise the limit.',
  },
  UPSTREAM_IDLE_TIMEOUT: {
    ...upstreamTimeout,
    means: 'A stream went silent for `timeouts.idleMs` after its output began.',
    action: 'Retry.',
  },
  UPSTREAM_TOTAL_TIMEOUT: {
    status: 504,
    kind: 'timeout',
    retryable: false,
    means: 'The answer took longer than `timeouts.totalMs`.',
    action: 'Ask for less output, or have the operator raise the limit.',
  },

  // The console (HTML pages)
  CSRF_TOKEN_INVALID: {
    ...forbidden,
    means: 'A console form without its token, with a wrong one, or from another origin.',
    action: 'Reload the page and try again.',
  },
  LOGIN_RATE_LIMITED: {
    status: 429,
    kind: 'rate_limit',
    retryable: true,
    means: 'Too many failed console sign-ins.',
    action: 'Wait the minutes the page names.',
  },

  // Configuration, thrown at start-up (and by the CLI's commands)
  CONFIG_INVALID: { ...config, means: 'An option has the wrong type or shape.', action: 'Fix the option `param` names.' },
  CONFIG_API_KEYS_MISSING: {
    ...config,
    means: 'Real providers are configured but no `apiKeys`.',
    action: 'Set `apiKeys` (or `requireApiKey: false`).',
  },
  CONFIG_UNKNOWN_PROVIDER: {
    ...config,
    means: 'A model names a provider key that is not configured.',
    action: 'Configure the provider or fix the name.',
  },
  CONFIG_UNKNOWN_PROVIDER_TYPE: {
    ...config,
    means: '`providers.<key>.type` is not a built-in type.',
    action: 'Use one of the types the message lists.',
  },
  CONFIG_MODEL_ID_DUPLICATE: { ...config, means: 'A model id or alias is used twice.', action: 'Rename one.' },
  CONFIG_PROVIDER_INVALID: { ...config, means: 'A provider option has the wrong type or shape.', action: 'Fix the option `param` names.' },
  CONFIG_PROVIDER_API_KEY_MISSING: {
    ...config,
    means: 'A provider that needs a key has none.',
    action: 'Set the variable the message names.',
  },

  CONFIG_PROVIDER_SPEC_VERSION: {
    ...config,
    means: 'A provider adapter declares a `specificationVersion` this gateway does not speak.',
    action: 'Update the adapter (or the gateway) so the versions match.',
  },
  CONFIG_FILE_UNREADABLE: { ...config, means: 'The config file cannot be read.', action: 'Fix the path or its permissions.' },
  CONFIG_FILE_SYNTAX: { ...config, means: 'The config file is not valid YAML or JSON.', action: 'Fix the syntax at the place named.' },
  CONFIG_FILE_INVALID: { ...config, means: 'A field of the config file is wrong.', action: 'Fix the fields listed.' },
  CONFIG_ENV_MISSING: {
    ...config,
    means: '`${NAME}` names unset or empty variables.',
    action: 'Set them, or give a default with `${NAME:-value}`.',
  },
  CONFIG_ENV_REFERENCE_INVALID: { ...config, means: 'A `${…}` reference is malformed.', action: 'Write it as `${NAME}`.' },
  CONFIG_FLAG_INVALID: { ...config, means: 'A command-line flag or command is wrong.', action: 'See `switchyard --help`.' },
  CONFIG_LISTEN_FAILED: {
    ...config,
    means: 'The port is taken, or the host is not an address of this machine.',
    action: 'Choose another port or host.',
  },
  CONFIG_DATABASE_SCHEMA_INVALID: {
    ...config,
    means: 'A PostgreSQL schema name is not a lower-case identifier.',
    action: 'Use letters, digits and `_`.',
  },
  CONFIG_DATABASE_MISSING: { ...config, means: 'A command needs the database the config file turns off.', action: 'Configure a database.' },
  CONFIG_ADMIN_NEEDS_DATABASE: {
    ...config,
    means: '`adminKey` is set without a `database`.',
    action: 'Add a database or drop `adminKey`.',
  },
  CONFIG_ADMIN_KEY_WEAK: { ...config, means: '`adminKey` is shorter than 16 characters.', action: 'Use a longer admin key.' },
  CONFIG_CONSOLE_NEEDS_DATABASE: { ...config, means: 'The console was given a gateway without a database.', action: 'Add a database.' },
  CONFIG_CONSOLE_INVALID: { ...config, means: 'A console option is wrong.', action: 'Fix the option the message names.' },
  CONFIG_MODEL_DEPLOYMENTS: { ...config, means: 'A model has neither `provider` nor `deployments`, or both.', action: 'Give exactly one.' },
  CONFIG_UNKNOWN_FALLBACK_MODEL: {
    ...config,
    means: '`fallbacks` or `contextFallback` names an unknown model.',
    action: 'Name a configured model or alias.',
  },
  USER_NOT_FOUND: {
    ...config,
    means: '`switchyard reset-password`: no console account has the e-mail address.',
    action: 'Check the address.',
  },
  CONFIG_BALANCES_NEED_DATABASE: {
    ...config,
    means: '`balances` is on without a `database`: the balance ledger lives in it.',
    action: 'Give the gateway a database.',
  },
  CONFIG_UNUSUAL_SPEND_NEEDS_LEDGER: {
    ...config,
    means: '`unusualSpend` is set without a `database`, or with the ledger off: the watch reads the usage ledger.',
    action: 'Give the gateway a database and keep the ledger on.',
  },
  BALANCE_AMOUNT_INVALID: {
    ...config,
    means: 'A top-up, refund, adjustment or code value that is not a dollar amount in range.',
    action: 'Give a number of dollars above 0 (an adjustment may be negative), at most 1,000,000.',
  },
  RECONCILE_NO_ADMIN_KEY: {
    ...config,
    means: "`switchyard reconcile` (or the console's Reconcile page): the config gives the provider no `adminKey`.",
    action: "Give the provider organisation's admin key as `providers.<name>.adminKey`.",
  },
  RECONCILE_REPORT_UNREACHABLE: {
    ...badGateway,
    means: "The provider's usage or cost report could not be reached.",
    action: 'Check the network, or `adminBaseURL`.',
  },
  RECONCILE_REPORT_REFUSED: {
    ...badGateway,
    means: 'The provider refused the usage or cost report (the message quotes its status and reason).',
    action: 'Check that `adminKey` is an admin key of the organisation, not a project or API key.',
  },
  RECONCILE_REPORT_INVALID: {
    ...badGateway,
    means: "The provider's report is not in the documented shape, or has more pages than read.",
    action: 'Try a shorter range; report it if it persists.',
  },
} as const satisfies Record<string, ErrorCodeEntry>;

/** A code of the registry: a misspelled one does not type-check. */
export type ErrorCode = keyof typeof errorCodes;

declare const unregistered: unique symbol;

/**
 * A code with no row in the registry: a provider's own code passed on to the caller
 * (`upstreamErrorCode`), or one a user's stage or provider adapter chose (`customErrorCode`).
 */
export type UnregisteredErrorCode = string & { readonly [unregistered]: true };

/** A provider's code (`context_length_exceeded`, `RESOURCE_EXHAUSTED`) as the gateway's SNAKE_CASE code. */
export function upstreamErrorCode(providerCode: string): UnregisteredErrorCode {
  return providerCode.toUpperCase() as UnregisteredErrorCode;
}

/**
 * A code of your own stage or provider adapter (`CARD_NUMBER_IN_INPUT`), for `new GatewayError`;
 * the gateway's own conditions use the registry's codes.
 */
export function customErrorCode(code: string): UnregisteredErrorCode {
  return code as UnregisteredErrorCode;
}

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(errorCodes, code);
}

/** The `error.code` a Chat or Responses caller sees: OpenAI's own code where it has one, else the code in lower case. */
export function openaiErrorCode(code: string): string {
  return (isErrorCode(code) ? (errorCodes[code] as ErrorCodeEntry).openaiCode : undefined) ?? code.toLowerCase();
}
