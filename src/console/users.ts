import { randomBytes } from 'node:crypto';
import type { StorageDb } from '../storage/schema.js';

export interface ConsoleUser {
  id: string;
  email: string;
  isAdmin: boolean;
  createdAt: number;
}

interface UserRow {
  id: string;
  email: string;
  is_admin: number;
  created_at: number | string;
}

const userOf = (row: UserRow): ConsoleUser => ({ id: row.id, email: row.email, isAdmin: Number(row.is_admin) === 1, createdAt: Number(row.created_at) });

/** The longest e-mail address accepted (RFC 5321's path limit, less the angle brackets). */
export const EMAIL_MAX = 254;

/** E-mail addresses are compared as typed, without case or surrounding spaces. */
export const normalEmail = (email: string): string => email.trim().toLowerCase();

export async function countUsers(db: StorageDb): Promise<number> {
  const row = await db.selectFrom('console_users').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Adds a user; undefined when the e-mail address is taken. */
export async function createUser(db: StorageDb, init: { email: string; passwordHash: string; isAdmin: boolean }): Promise<ConsoleUser | undefined> {
  const row = { id: randomBytes(12).toString('base64url'), email: normalEmail(init.email), password_hash: init.passwordHash, is_admin: init.isAdmin ? 1 : 0, created_at: Date.now() };
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
  const row = await db.selectFrom('console_users').select(['id', 'email', 'is_admin', 'created_at']).where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : userOf(row);
}

export async function listUsers(db: StorageDb): Promise<ConsoleUser[]> {
  const rows = await db.selectFrom('console_users').select(['id', 'email', 'is_admin', 'created_at']).orderBy('created_at').execute();
  return rows.map(userOf);
}

/** Replaces the password hash of the account with this e-mail address; undefined when there is none. */
export async function setPasswordHash(db: StorageDb, email: string, passwordHash: string): Promise<ConsoleUser | undefined> {
  const found = await findUserByEmail(db, email);
  if (found === undefined) return undefined;
  await db.updateTable('console_users').set({ password_hash: passwordHash }).where('id', '=', found.user.id).execute();
  return found.user;
}
