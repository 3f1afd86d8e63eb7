import { randomBytes } from 'node:crypto';
import type { StorageDb } from '../storage/schema.js';

export interface ConsoleUser {
  id: string;
  email: string;
  isAdmin: boolean;
  createdAt: number;
  /** When an admin disabled the user; undefined: enabled. */
  disabledAt?: number;
}

interface UserRow {
  id: string;
  email: string;
  is_admin: number;
  created_at: number | string;
  disabled_at?: number | string | null;
}

const userOf = (row: UserRow): ConsoleUser => ({
  id: row.id,
  email: row.email,
  isAdmin: Number(row.is_admin) === 1,
  createdAt: Number(row.created_at),
  ...(row.disabled_at === null || row.disabled_at === undefined ? {} : { disabledAt: Number(row.disabled_at) }),
});

const USER_COLUMNS = ['id', 'email', 'is_admin', 'created_at', 'disabled_at'] as const;

/** The longest e-mail address accepted (RFC 5321's path limit, less the angle brackets). */
export const EMAIL_MAX = 254;

/** E-mail addresses are compared as typed, without case or surrounding spaces. */
export const normalEmail = (email: string): string => email.trim().toLowerCase();

export async function countUsers(db: StorageDb): Promise<number> {
  const row = await db
    .selectFrom('console_users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Adds a user; undefined when the e-mail address is taken. */
export async function createUser(
  db: StorageDb,
  init: { email: string; passwordHash: string; isAdmin: boolean },
): Promise<ConsoleUser | undefined> {
  const row = {
    id: randomBytes(12).toString('base64url'),
    email: normalEmail(init.email),
    password_hash: init.passwordHash,
    is_admin: init.isAdmin ? 1 : 0,
    created_at: Date.now(),
  };
  const inserted = await db
    .insertInto('console_users')
    .values(row)
    .onConflict((conflict) => conflict.column('email').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1 ? userOf(row) : undefined;
}

/** The user with this e-mail address and their password hash. */
export async function findUserByEmail(db: StorageDb, email: string): Promise<{ user: ConsoleUser; passwordHash: string } | undefined> {
  const row = await db.selectFrom('console_users').selectAll().where('email', '=', normalEmail(email)).executeTakeFirst();
  return row === undefined ? undefined : { user: userOf(row), passwordHash: row.password_hash };
}

export async function findUserById(db: StorageDb, id: string): Promise<ConsoleUser | undefined> {
  const row = await db.selectFrom('console_users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : userOf(row);
}

export async function listUsers(db: StorageDb): Promise<ConsoleUser[]> {
  const rows = await db.selectFrom('console_users').select(USER_COLUMNS).orderBy('created_at').execute();
  return rows.map(userOf);
}

/** Replaces the password hash of the account with this e-mail address; undefined when there is none. */
export async function setPasswordHash(db: StorageDb, email: string, passwordHash: string): Promise<ConsoleUser | undefined> {
  const found = await findUserByEmail(db, email);
  if (found === undefined) return undefined;
  await db.updateTable('console_users').set({ password_hash: passwordHash }).where('id', '=', found.user.id).execute();
  return found.user;
}

/** Makes the user an admin or a member; false when there is no such user. */
export async function setRole(db: StorageDb, id: string, role: 'admin' | 'member'): Promise<boolean> {
  const result = await db
    .updateTable('console_users')
    .set({ is_admin: role === 'admin' ? 1 : 0 })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Disables (at `now`) or enables the user; false when there is no such user. */
export async function setDisabled(db: StorageDb, id: string, disabled: boolean, now = Date.now()): Promise<boolean> {
  const result = await db
    .updateTable('console_users')
    .set({ disabled_at: disabled ? now : null })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The public ids of the keys the user owns. */
export async function keysOfUser(db: StorageDb, id: string): Promise<string[]> {
  const rows = await db.selectFrom('console_key_owners').select('key_public_id').where('user_id', '=', id).execute();
  return rows.map((row) => row.key_public_id);
}

/**
 * Removes the user and their sessions and reset links. Their keys' ownership rows stay (their usage
 * is still theirs in the reports); the caller revokes the keys.
 */
export async function deleteUser(db: StorageDb, id: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('console_sessions').where('user_id', '=', id).execute();
    await trx.deleteFrom('console_password_resets').where('user_id', '=', id).execute();
    const result = await trx.deleteFrom('console_users').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  });
}
