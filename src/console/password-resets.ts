import { createHash, randomBytes } from 'node:crypto';
import type { StorageDb } from '../storage/schema.js';

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');
/** A reset link is good for a day, once: it is sent by hand, and anyone holding it can take the account. */
export const RESET_TTL_MS = 86_400_000;

/** A new reset link's token for `userId` (shown to the admin once); earlier unused links of the user stop working. */
export async function createPasswordReset(db: StorageDb, userId: string, createdBy: string, now = Date.now()): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('console_password_resets')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
    await trx
      .insertInto('console_password_resets')
      .values({
        token_hash: hashOf(token),
        user_id: userId,
        created_by: createdBy,
        created_at: now,
        expires_at: now + RESET_TTL_MS,
        used_at: null,
      })
      .execute();
  });
  return token;
}

/** The user a reset token is for, while it is unused and unexpired. */
export async function resetTokenUser(db: StorageDb, token: string, now = Date.now()): Promise<string | undefined> {
  const row = await db
    .selectFrom('console_password_resets')
    .select(['user_id', 'expires_at', 'used_at'])
    .where('token_hash', '=', hashOf(token))
    .executeTakeFirst();
  return row === undefined || row.used_at !== null || Number(row.expires_at) <= now ? undefined : row.user_id;
}

/**
 * Uses a reset token: a conditional update only one request can make. The user it was for, or
 * undefined when it was used meanwhile or expired.
 */
export async function useResetToken(db: StorageDb, token: string, now = Date.now()): Promise<string | undefined> {
  const userId = await resetTokenUser(db, token, now);
  if (userId === undefined) return undefined;
  const result = await db
    .updateTable('console_password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', hashOf(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? userId : undefined;
}
