/**
 * Who made a request, as the authenticate stage found it. Limits, usage and logs key their
 * records on it. Empty when the gateway knows no more than "a valid key" (configured keys,
 * or no keys required).
 */
export interface Caller {
  /** The key's public id, safe to show and log (stored keys). Never the secret. */
  readonly keyId?: string;
  /** The key's name, for logs and the console. */
  readonly keyName?: string;
  /** The model ids the key may call; every model when absent. */
  readonly models?: readonly string[];
  /** The key's spend limit, in nano-USD per period (UTC days and months); none when absent. */
  readonly budget?: { readonly nanoUsd: number; readonly period: 'day' | 'month' | 'never' };
  /** The key's own rate and concurrency limits (stored keys); the configured defaults apply where absent. */
  readonly limits?: { readonly requestsPerMinute?: number; readonly tokensPerMinute?: number; readonly concurrency?: number };
  /** The console user who owns the key (stored keys with an owner): its balance, when accounts have one. */
  readonly account?: { readonly id: string; readonly email: string | undefined; readonly admin: boolean };
  /** Set when the caller holds a browser token (`keyId` is then its parent key's). */
  readonly token?: { readonly id: string; readonly expiresAt: number; readonly spendCapNanoUsd?: number };
}
