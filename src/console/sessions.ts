import { createHash, randomBytes } from 'node:crypto';
import type { StorageDb } from '../storage/schema.js';

/** A session cookie's value is 256 random bits; the table keeps only its SHA-256. */
const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Starts a session for `userId`; returns the cookie value (shown to the browser only). */
export async function startSession(db: StorageDb, userId: string, ttlMs: number, now = Date.now()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('console_sessions')
    .values({ id_hash: hashOf(token), user_id: userId, created_at: now, expires_at: now + ttlMs })
    .execute();
  // Expired sessions go as new ones come, so the table does not grow without end.
  await db.deleteFrom('console_sessions').where('expires_at', '<', now).execute();
  return token;
}

/** The user id of a live session; undefined for an unknown or expired one. */
export async function sessionUserId(db: StorageDb, token: string, now = Date.now()): Promise<string | undefined> {
  const row = await db
    .selectFrom('console_sessions')
    .select(['user_id', 'expires_at'])
    .where('id_hash', '=', hashOf(token))
    .executeTakeFirst();
  return row === undefined || Number(row.expires_at) <= now ? undefined : row.user_id;
}

export async function endSession(db: StorageDb, token: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('id_hash', '=', hashOf(token)).execute();
}

/** Ends every session of `userId` (its password was reset: whoever held one must sign in again). */
export async function endUserSessions(db: StorageDb, userId: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('user_id', '=', userId).execute();
}
