import type { StorageDb } from '../storage/schema.js';

/**
 * The flag on a key whose spend is unusual, kept on its row so every instance sharing the database
 * agrees: the conditional update that sets it succeeds on one instance only, which alone logs it.
 * True when this call flagged it (it was not flagged, and is not revoked).
 */
export async function flagKey(db: StorageDb, keyId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ unusual_spend_at: now })
    .where('public_id', '=', keyId)
    .where('unusual_spend_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Pauses a key (refused until an admin lifts it); true when this call paused it. */
export async function pauseKey(db: StorageDb, keyId: string, reason: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ paused_at: now, pause_reason: reason })
    .where('public_id', '=', keyId)
    .where('paused_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Clears the flag of keys whose spend is no longer unusual (a pause stays until an admin lifts it). */
export async function clearFlags(db: StorageDb, keyIds: readonly string[]): Promise<void> {
  if (keyIds.length === 0) return;
  await db.updateTable('api_keys').set({ unusual_spend_at: null }).where('public_id', 'in', keyIds).execute();
}

/** The keys flagged now, and how many keys are paused (not revoked). */
export async function flagState(db: StorageDb): Promise<{ flagged: string[]; paused: number }> {
  const rows = await db
    .selectFrom('api_keys')
    .select(['public_id', 'unusual_spend_at', 'paused_at'])
    .where((eb) => eb.or([eb('unusual_spend_at', 'is not', null), eb('paused_at', 'is not', null)]))
    .where('revoked_at', 'is', null)
    .execute();
  return {
    flagged: rows.filter((row) => row.unusual_spend_at !== null).map((row) => row.public_id),
    paused: rows.filter((row) => row.paused_at !== null).length,
  };
}

/** What a log line names of a key: its name and its account (a console user), never its secret. */
export async function keyOwnerOf(db: StorageDb, keyId: string): Promise<{ name: string; accountId?: string; accountEmail?: string }> {
  const row = await db
    .selectFrom('api_keys')
    .leftJoin('console_key_owners', 'console_key_owners.key_public_id', 'api_keys.public_id')
    .leftJoin('console_users', 'console_users.id', 'console_key_owners.user_id')
    .select(['api_keys.name', 'console_key_owners.user_id', 'console_users.email'])
    .where('api_keys.public_id', '=', keyId)
    .executeTakeFirst();
  return {
    name: row?.name ?? '',
    ...(row?.user_id === null || row?.user_id === undefined ? {} : { accountId: row.user_id }),
    ...(row?.email === null || row?.email === undefined ? {} : { accountEmail: row.email }),
  };
}
