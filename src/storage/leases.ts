import type { StorageDb } from './schema.js';

/**
 * Takes the lease `name` for `holder` until `now + ttlMs`, if nobody holds it (or its holder's time
 * is up). True when `holder` has it now. One statement, so two instances asking at once cannot both win.
 */
export async function takeLease(db: StorageDb, name: string, holder: string, ttlMs: number, now = Date.now()): Promise<boolean> {
  await db
    .insertInto('gateway_leases')
    .values({ name, holder, expires_at: now + ttlMs })
    .onConflict((conflict) =>
      conflict
        .column('name')
        .doUpdateSet({ holder, expires_at: now + ttlMs })
        .where('gateway_leases.expires_at', '<=', now),
    )
    .execute();
  const row = await db.selectFrom('gateway_leases').select('holder').where('name', '=', name).executeTakeFirst();
  return row?.holder === holder;
}
