import type { KeyService } from '../access/key-service.js';
import type { BudgetPeriod, KeyOwnLimits } from '../access/stored-keys.js';
import type { ModelSummary } from '../canonical/index.js';
import type { AllowedHosts } from '../http/allowed-hosts.js';
import type { Logger } from '../logger.js';
import type { StorageDb } from '../storage/schema.js';
import type { ReportSource } from '../reconcile/provider-report.js';

export type { ReportSource } from '../reconcile/provider-report.js';

/** Who may register: anyone, only people with an admin's invitation link, or no one (the first user always may). */
export type RegistrationMode = 'open' | 'invite' | 'closed';

/** The part of a `gateway()` the console works on: its stored keys, its database and its models. */
export interface ConsoleGateway {
  readonly keys: KeyService | undefined;
  readonly storage: (() => Promise<StorageDb>) | undefined;
  readonly models: readonly ModelSummary[];
  /** Account balances, when the gateway has `balances` on: told of each credit so it counts at once. */
  readonly balances?: ConsoleBalances | undefined;
}

/** What the console needs of the gateway's balances. */
export interface ConsoleBalances {
  credited(accountId: string): Promise<void>;
  /** Admins' accounts are charged too. */
  readonly chargesAdmins?: boolean;
}

export interface ConsoleOptions {
  /** The gateway whose keys, models and usage the console manages; it needs a `database`. */
  gateway: ConsoleGateway;
  /** Default `'open'`. The first user may always register (and becomes an admin). */
  registration?: RegistrationMode;
  /**
   * E-mail addresses that are admins when they register (besides the first user). Nothing proves
   * who owns an address, so such an address registers only with an invitation link an admin made
   * (in every registration mode): open registration cannot take it first.
   */
  admins?: readonly string[];
  /** Cookies carry `Secure`: `'auto'` (default) when the request came over HTTPS (`trustProxy`: as `X-Forwarded-Proto` says). */
  secureCookies?: boolean | 'auto';
  /**
   * Believe `X-Forwarded-For` / `X-Forwarded-Proto` / `X-Forwarded-Host` (behind a reverse proxy).
   * `true`: one proxy; a number: that many in a chain. The client address is the `X-Forwarded-For`
   * entry the outermost trusted proxy added (the right-most with one): entries left of it are the
   * client's to write. Default false.
   */
  trustProxy?: boolean | number;
  /** How long a sign-in lasts, in ms. Default 7 days. */
  sessionTtlMs?: number;
  /** Failed sign-ins allowed per account and per client address in `windowMs` before sign-in is refused (429). */
  loginLimits?: { perAccount?: number; perAddress?: number; windowMs?: number };
  /**
   * Where the API is, as clients reach it (`https://llm.example.com`, `https://example.com/llm`):
   * the base URLs and snippets show it. Default: the console's own origin (the standalone server).
   */
  apiRoot?: string;
  /**
   * What keys that users (not admins) create may do at most: their models, budget and limits start
   * here and users can only narrow them. Default: no ceiling (the gateway's default limits apply).
   * @example userKeys: { budget: { usd: 20, period: 'month' }, limits: { requestsPerMinute: 60 } }
   */
  userKeys?: UserKeyCeiling;
  /**
   * Host names the console answers to besides IP literals, `localhost` and `*.localhost`
   * (`.example.com`: it and every name under it); others get a 403 (`HOST_NOT_ALLOWED`), so a page
   * on another site cannot reach it by DNS rebinding. Default `true` (any name: the host app owns
   * its Host policy; the standalone server checks its own `allowedHosts` before the console).
   */
  allowedHosts?: AllowedHosts;
  /**
   * The providers' usage reports the admins' Reconcile page compares with the ledger: each with the
   * organisation's admin key (kept on the server; never shown). The standalone server fills these
   * from `providers.<name>.adminKey` in its config. Default none.
   */
  reportSources?: readonly ReportSource[];
  /** The path the console is mounted at when a plain `node:http` server routes to it (Express's mount path is read from the request). */
  basePath?: string;
  logger?: Logger;
}

export interface UserKeyCeiling {
  models?: readonly string[];
  budget?: { usd: number; period: BudgetPeriod };
  limits?: KeyOwnLimits;
}

export interface ResolvedConsoleOptions {
  keys: KeyService;
  db: () => Promise<StorageDb>;
  models: readonly ModelSummary[];
  registration: RegistrationMode;
  admins: ReadonlySet<string>;
  secureCookies: boolean | 'auto';
  trustProxy: boolean;
  /** How many trusted proxies append to `X-Forwarded-For` (0: the socket's address is the client's). */
  proxyHops: number;
  sessionTtlMs: number;
  loginLimits: { perAccount: number; perAddress: number; windowMs: number };
  apiRoot: string | undefined;
  basePath: string;
  hostAllowed: (host: string | undefined) => boolean;
  userKeys: UserKeyCeiling | undefined;
  reportSources: readonly ReportSource[];
  /** Undefined when the gateway has no balances (the console shows no money pages). */
  balances: ConsoleBalances | undefined;
  /** Admins' accounts are charged too (the gateway's `balances.admins`). */
  chargeAdmins: boolean;
  logger: Logger;
}
