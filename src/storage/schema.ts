import type { ColumnType, Insertable, Kysely, Selectable } from 'kysely';

/**
 * The tables the gateway keeps, as the query builder sees them. Times are epoch milliseconds;
 * money is integer nano-US-dollars (1e-9 USD), so a single cheap token is never rounded to 0.
 * A count or cost that is unknown is NULL, never 0.
 */
export interface StorageSchema {
  api_keys: ApiKeyTable;
  usage_ledger: UsageLedgerTable;
  gateway_secrets: GatewaySecretTable;
  gateway_leases: GatewayLeaseTable;
  console_users: ConsoleUserTable;
  console_sessions: ConsoleSessionTable;
  console_login_attempts: ConsoleLoginAttemptTable;
  console_key_owners: ConsoleKeyOwnerTable;
  console_invites: ConsoleInviteTable;
  console_password_resets: ConsolePasswordResetTable;
  console_audit_log: ConsoleAuditLogTable;
  account_balance_ledger: AccountBalanceLedgerTable;
  redemption_codes: RedemptionCodeTable;
}

/** A code an admin made that credits its value to the account that redeems it, once, before it expires. */
export interface RedemptionCodeTable {
  /** SHA-256 of the code: the code itself is shown once, when made. */
  code_hash: string;
  batch_id: string;
  value_nano_usd: BigIntColumn;
  created_by: string;
  created_at: BigIntColumn;
  expires_at: BigIntColumn;
  redeemed_by: string | null;
  redeemed_at: NullableBigIntColumn;
}

/** One change to an account's balance: append-only; the balance is the sum of the account's rows. */
export interface AccountBalanceLedgerTable {
  id: string;
  /** The console user whose balance it is. */
  account_id: string;
  at: BigIntColumn;
  /** `top-up`, `refund`, `adjustment`, `redemption` or `usage`. */
  kind: string;
  /** Signed: credits are positive, usage negative. */
  amount_nano_usd: BigIntColumn;
  /** The admin who made it; NULL for usage and redemptions. */
  actor_id: string | null;
  /** Why (a top-up's reason, a redemption code's id). */
  note: string | null;
  /** The request a usage row charged. */
  request_id: string | null;
}

/** A job only one instance at a time may run (the status page's probe): who holds it, and until when. */
export interface GatewayLeaseTable {
  name: string;
  holder: string;
  expires_at: BigIntColumn;
}

/** A person who signs in to the console. */
export interface ConsoleUserTable {
  id: string;
  /** Lower-cased; unique. */
  email: string;
  /** An argon2id hash (with its own salt and cost). */
  password_hash: string;
  /** 0 or 1. */
  is_admin: number;
  created_at: BigIntColumn;
  /** When an admin disabled the user (no sign-in, keys refused); NULL: enabled. */
  disabled_at?: ColumnType<number | string | null, number | null | undefined, number | null>;
  /** How far below zero the balance may go, in nano-USD (an admin's credit limit); NULL: not below zero. */
  credit_limit_nano_usd?: ColumnType<number | string | null, number | null | undefined, number | null>;
}

/** A signed-in browser: keyed by a hash of the cookie's value, so a leaked table signs no one in. */
export interface ConsoleSessionTable {
  id_hash: string;
  user_id: string;
  created_at: BigIntColumn;
  expires_at: BigIntColumn;
}

/** Failed sign-ins of one account or one address in the current window (`account:<email>`, `ip:<address>`). */
export interface ConsoleLoginAttemptTable {
  scope: string;
  failures: number;
  window_start: BigIntColumn;
}

/** Which console user a stored key belongs to. */
export interface ConsoleKeyOwnerTable {
  key_public_id: string;
  user_id: string;
}

/** A one-time registration link an admin made (`registration: 'invite'`): a hash of its token. */
export interface ConsoleInviteTable {
  token_hash: string;
  created_by: string;
  created_at: BigIntColumn;
  expires_at: BigIntColumn;
  used_at: NullableBigIntColumn;
}

/** A one-time password-reset link an admin made for a user: a hash of its token. */
export interface ConsolePasswordResetTable {
  token_hash: string;
  user_id: string;
  created_by: string;
  created_at: BigIntColumn;
  expires_at: BigIntColumn;
  used_at: NullableBigIntColumn;
}

/** One admin action: who did it (id and e-mail at the time), what, to whom, when. Append-only. */
export interface ConsoleAuditLogTable {
  id: string;
  at: BigIntColumn;
  actor_id: string;
  actor_email: string;
  /** e.g. `user.disabled`, `user.role`, `invite.created`. */
  action: string;
  /** What it was done to (a user's e-mail, a key's public id); NULL when nothing in particular. */
  target: string | null;
  /** Free text: the new role, an amount. */
  detail: string | null;
}

/** A secret the instances share, made once by whichever instance needs it first. */
export interface GatewaySecretTable {
  name: string;
  value: string;
  created_at: BigIntColumn;
}

/** The query builder over the store: what the subsystems that keep data (keys, usage) are handed. */
export type StorageDb = Kysely<StorageSchema>;

/** PostgreSQL returns BIGINT as a string; written as a number. */
type BigIntColumn = ColumnType<number | string, number, number>;
type NullableBigIntColumn = ColumnType<number | string | null, number | null, number | null>;

/** A stored gateway key: its public id and a one-way hash of its secret, never the secret. */
export interface ApiKeyTable {
  /** Safe to show and log. */
  public_id: string;
  name: string;
  /** One-way hash of the secret part. */
  secret_hash: string;
  created_at: BigIntColumn;
  last_used_at: NullableBigIntColumn;
  expires_at: NullableBigIntColumn;
  revoked_at: NullableBigIntColumn;
  /** JSON array of model ids the key may call; NULL: every model. */
  models: string | null;
  budget_nano_usd: NullableBigIntColumn;
  /** `day`, `month` or `never`; NULL without a budget. */
  budget_period: string | null;
  /** JSON `{ requestsPerMinute?, tokensPerMinute?, concurrency? }`; NULL: the configured defaults. */
  limits: string | null;
  /** When the key's spend was flagged as unusual (NULL: it is not flagged now). */
  unusual_spend_at?: ColumnType<number | string | null, number | null | undefined, number | null>;
  /** When the key was paused for unusual spend (refused until an admin lifts it); NULL: not paused. */
  paused_at?: ColumnType<number | string | null, number | null | undefined, number | null>;
  /** Why it was paused (the hour's spend against its average). */
  pause_reason?: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One upstream attempt of one request: append-only, keyed by the gateway's own ids. */
export interface UsageLedgerTable {
  request_id: string;
  attempt: number;
  at: BigIntColumn;
  key_public_id: string | null;
  user_agent: string | null;
  protocol: string;
  model: string | null;
  provider: string | null;
  upstream_model: string | null;
  /** 0 or 1 (SQLite has no boolean). */
  stream: number;
  status: number;
  error_code: string | null;
  input_tokens: number | null;
  cached_input_tokens: number | null;
  cache_write_tokens: number | null;
  /** The part of `cache_write_tokens` written to a 1-hour cache (Anthropic); NULL when not reported, and for rows from before it. */
  cache_write_1h_tokens?: ColumnType<number | null, number | null | undefined, number | null>;
  output_tokens: number | null;
  reasoning_tokens: number | null;
  /** NULL when a price was unknown: the row is unpriced, not free. */
  cost_nano_usd: NullableBigIntColumn;
  price_version: string | null;
  latency_ms: number | null;
  first_token_ms: number | null;
  /** `complete`, `partial` (a stream cut short: the client left, or it failed in-band) or `failed`. */
  billing: string;
  /** `reported` (the provider's counts) or `estimated` (a stream cut short); NULL without counts. */
  usage_source: ColumnType<string | null, string | null | undefined, string | null>;
  /** The browser token the request came with; NULL for a key. */
  token_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The deployment the attempt went to (`models[].deployments[].name`); NULL for rows from before deployments. */
  deployment: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A key row as read back. */
export type ApiKeyRow = Selectable<ApiKeyTable>;

/** A ledger row as written. */
export type UsageLedgerRow = Insertable<UsageLedgerTable>;
