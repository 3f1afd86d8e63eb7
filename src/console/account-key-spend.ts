import { sql } from 'kysely';
import { readsOf } from '../storage/reads-of.js';
import type { StorageDb } from '../storage/schema.js';

/** What one key of an account spent: this UTC month and in all (nano-USD of priced rows). */
export interface AccountKeySpend {
  publicId: string;
  name: string;
  revoked: boolean;
  monthNanoUsd: number;
  allTimeNanoUsd: number;
}

/** Epoch ms of the start of `now`'s UTC month. */
export const monthStartOf = (now: number) => {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
};

/**
 * The spend of each key an account owns, this month and in all: one aggregate over the ledger's
 * (key, at, cost) index for the account's keys only.
 */
export async function accountKeySpend(db: StorageDb, accountId: string, now = Date.now()): Promise<AccountKeySpend[]> {
  const keys = await db
    .selectFrom('console_key_owners')
    .innerJoin('api_keys', 'api_keys.public_id', 'console_key_owners.key_public_id')
    .select(['api_keys.public_id', 'api_keys.name', 'api_keys.revoked_at', 'api_keys.created_at'])
    .where('console_key_owners.user_id', '=', accountId)
    .orderBy('api_keys.created_at')
    .execute();
  if (keys.length === 0) return [];
  const monthStart = monthStartOf(now);
  const rows = await readsOf(db)
    .selectFrom('usage_ledger')
    .select([
      'key_public_id',
      sql<number | string | null>`sum(cost_nano_usd)`.as('all_time'),
      sql<number | string | null>`sum(case when at >= ${monthStart} then cost_nano_usd else 0 end)`.as('month'),
    ])
    .where(
      'key_public_id',
      'in',
      keys.map((key) => key.public_id),
    )
    .groupBy('key_public_id')
    .execute();
  const spent = new Map(rows.map((row) => [row.key_public_id, row]));
  return keys.map((key) => {
    const row = spent.get(key.public_id);
    return {
      publicId: key.public_id,
      name: key.name,
      revoked: key.revoked_at !== null,
      monthNanoUsd: Number(row?.month ?? 0),
      allTimeNanoUsd: Number(row?.all_time ?? 0),
    };
  });
}
