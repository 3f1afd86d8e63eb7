import argon2 from 'argon2';

/** Shortest and longest password accepted (argon2 takes any length; the cap bounds the work a request can ask for). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

/** An argon2id hash with the library's defaults (its own salt; the parameters live in the hash). */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

/** A hash to verify against when there is no such account, so a wrong e-mail takes as long as a wrong password. */
let dummy: Promise<string> | undefined;

/** Whether `password` matches `hash`; with no hash (no such account) still spends the same time, then says no. */
export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  if (hash === undefined) {
    dummy ??= hashPassword('not a password anyone has');
    await argon2.verify(await dummy, password).catch(() => false);
    return false;
  }
  return argon2.verify(hash, password).catch(() => false);
}
