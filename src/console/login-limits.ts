import { sql } from 'kysely';
import type { StorageDb } from '../storage/schema.js';

export interface LoginLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

/**
 * Failed sign-ins (each attempt is counted before its password is checked, and a success gives its
 * count back), counted in the database so every instance sees the same counts: per account
 * (slows guessing one password) and per client address (slows trying many accounts). A window
 * starts at the first failure; once `windowMs` passed, counting starts again.
 */
export class LoginThrottle {
  readonly #db: StorageDb;
  readonly #limits: LoginLimits;

  constructor(db: StorageDb, limits: LoginLimits) {
    this.#db = db;
    this.#limits = limits;
  }

  /** Milliseconds until sign-in may be tried again for this account or address; 0 when it may now. */
  async retryAfterMs(email: string, address: string, now = Date.now()): Promise<number> {
    const rows = await this.#db
      .selectFrom('console_login_attempts')
      .selectAll()
      .where('scope', 'in', [accountScope(email), addressScope(address)])
      .execute();
    let wait = 0;
    for (const row of rows) {
      const limit = row.scope.startsWith('account:') ? this.#limits.perAccount : this.#limits.perAddress;
      const ends = Number(row.window_start) + this.#limits.windowMs;
      if (row.failures >= limit && ends > now) wait = Math.max(wait, ends - now);
    }
    return wait;
  }

  /**
   * Counts this attempt before its password is checked (argon2 takes a while: counting after let
   * concurrent attempts all pass the check); milliseconds to wait when it is one too many, else 0.
   * Each count is one atomic upsert that returns the new count, so concurrent attempts see
   * different counts and at most the limit get through.
   */
  async reserve(email: string, address: string, now = Date.now()): Promise<number> {
    const stale = now - this.#limits.windowMs;
    let wait = 0;
    for (const scope of [accountScope(email), addressScope(address)]) {
      const row = await this.#db
        .insertInto('console_login_attempts')
        .values({ scope, failures: 1, window_start: now })
        .onConflict((conflict) =>
          conflict.column('scope').doUpdateSet({
            failures: sql`case when console_login_attempts.window_start < ${stale} then 1 else console_login_attempts.failures + 1 end`,
            window_start: sql`case when console_login_attempts.window_start < ${stale} then ${now} else console_login_attempts.window_start end`,
          }),
        )
        .returning(['failures', 'window_start'])
        .executeTakeFirstOrThrow();
      const limit = scope.startsWith('account:') ? this.#limits.perAccount : this.#limits.perAddress;
      if (row.failures > limit) wait = Math.max(wait, Number(row.window_start) + this.#limits.windowMs - now);
    }
    return Math.max(wait, 0);
  }

  /**
   * A successful sign-in clears its account's count and gives back the address's one it reserved
   * (the address's others stay: one good account must not unlock guessing others).
   */
  async succeeded(email: string, address: string): Promise<void> {
    await this.#db.deleteFrom('console_login_attempts').where('scope', '=', accountScope(email)).execute();
    await this.#db
      .updateTable('console_login_attempts')
      .set({ failures: sql`case when failures > 0 then failures - 1 else 0 end` })
      .where('scope', '=', addressScope(address))
      .execute();
  }
}

const accountScope = (email: string) => `account:${email.trim().toLowerCase()}`;
const addressScope = (address: string) => `ip:${address}`;
