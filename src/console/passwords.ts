/** Shortest and longest password accepted (argon2 takes any length; the cap bounds the work a request can ask for). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

/** argon2's native addon loads on the first password hashed, not when the package is imported (most hosts never use the console). */
const argon2 = () => import('argon2').then((module) => module.default);

/** An argon2id hash with the library's defaults (its own salt; the parameters live in the hash). */
export async function hashPassword(password: string): Promise<string> {
  const { hash, argon2id } = await argon2();
  return hash(password, { type: argon2id });
}

/** A hash to verify against when there is no such account, so a wrong e-mail takes as long as a wrong password. */
let dummy: Promise<string> | undefined;

/** Whether `password` matches `hash`; with no hash (no such account) still spends the same time, then says no. */
export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  const { verify } = await argon2();
  if (hash === undefined) {
    dummy ??= hashPassword('not a password anyone has');
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  return verify(hash, password).catch(() => false);
}
