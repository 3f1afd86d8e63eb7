import type { StorageDb } from '../storage/schema.js';

export async function setKeyOwner(db: StorageDb, publicId: string, userId: string): Promise<void> {
  await db.insertInto('console_key_owners').values({ key_public_id: publicId, user_id: userId }).execute();
}

/** Public id → owner's user id, for every key that has an owner. */
export async function keyOwners(db: StorageDb): Promise<Map<string, string>> {
  const rows = await db.selectFrom('console_key_owners').selectAll().execute();
  return new Map(rows.map((row) => [row.key_public_id, row.user_id]));
}

export async function ownerOf(db: StorageDb, publicId: string): Promise<string | undefined> {
  const row = await db.selectFrom('console_key_owners').select('user_id').where('key_public_id', '=', publicId).executeTakeFirst();
  return row?.user_id;
}
