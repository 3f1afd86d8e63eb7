import { createHash, randomBytes } from 'node:crypto';
import type { StorageDb } from '../storage/schema.js';

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');
/** An invitation link is good for a week, once. */
const INVITE_TTL_MS = 7 * 86_400_000;

/** A new invitation; returns its token (shown to the admin once, in the link). */
export async function createInvite(db: StorageDb, createdBy: string, now = Date.now()): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  await db
    .insertInto('console_invites')
    .values({ token_hash: hashOf(token), created_by: createdBy, created_at: now, expires_at: now + INVITE_TTL_MS, used_at: null })
    .execute();
  return token;
}

/** Whether an invitation can still be used (unused and not expired). */
export async function inviteIsValid(db: StorageDb, token: string, now = Date.now()): Promise<boolean> {
  const row = await db
    .selectFrom('console_invites')
    .select(['expires_at', 'used_at'])
    .where('token_hash', '=', hashOf(token))
    .executeTakeFirst();
  return row !== undefined && row.used_at === null && Number(row.expires_at) > now;
}

/** Marks an invitation used; false when it was not valid (used by someone else meanwhile, or expired). */
export async function useInvite(db: StorageDb, token: string, now = Date.now()): Promise<boolean> {
  const result = await db
    .updateTable('console_invites')
    .set({ used_at: now })
    .where('token_hash', '=', hashOf(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
