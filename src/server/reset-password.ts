import { randomBytes } from 'node:crypto';
import { configError } from '../canonical/index.js';
import { hashPassword } from '../console/passwords.js';
import { endUserSessions } from '../console/sessions.js';
import { setPasswordHash } from '../console/users.js';
import type { StorageDb } from '../storage/schema.js';

/**
 * `switchyard users reset-password EMAIL`: the way back in for a console user who forgot their
 * password (the console sends no e-mail). Sets a new random password, ends the account's sessions,
 * and prints the password once, for whoever runs the command on the server to hand over.
 */
export async function resetPassword(db: StorageDb, email: string, write: (text: string) => void): Promise<void> {
  // 144 random bits as 24 base64url characters: over the console's 10-character minimum.
  const password = randomBytes(18).toString('base64url');
  const user = await setPasswordHash(db, email, await hashPassword(password));
  if (user === undefined) throw configError('USER_NOT_FOUND', `No console account has the e-mail address '${email.trim()}'.`);
  await endUserSessions(db, user.id);
  write(`New password for ${user.email} (shown only this once; their sessions are ended):\n\n  ${password}\n\n`);
}
