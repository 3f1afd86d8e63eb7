import { randomBytes } from 'node:crypto';
import type { StorageDb } from '../storage/schema.js';

/**
 * A secret every instance sharing the database uses (the browser-token signing key): made by
 * whichever instance needs it first; the others read that one.
 */
export async function sharedSecret(db: StorageDb, name: string): Promise<Buffer> {
  await db
    .insertInto('gateway_secrets')
    .values({ name, value: randomBytes(32).toString('base64url'), created_at: Date.now() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('gateway_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64url');
}
