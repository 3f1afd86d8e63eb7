import type { IncomingMessage } from 'node:http';
import { parseCookies } from '../console/console-http.js';
import type { ConsoleGateway } from '../console/console-options.js';
import { keyOwners } from '../console/key-owners.js';
import { sessionUserId } from '../console/sessions.js';
import { findUserById } from '../console/users.js';
import { SESSION_COOKIE } from '../console/visitor-session.js';

/** Who the console knows this browser as, and the public ids of their usable keys. */
export interface SignedInKeys {
  email: string;
  publicIds: string[];
}

/** The part of a gateway the guide reads the console's sign-in through. */
export type DocsGateway = Pick<ConsoleGateway, 'keys' | 'storage'>;

/**
 * The console user this request's session cookie belongs to (read as the console reads it) with
 * their own live keys; undefined without a database, a cookie or a live session. The console's
 * cookie reaches the guide where the guide is under the console's path (the standalone server
 * mounts the console at `/`).
 */
export async function signedInKeys(
  req: IncomingMessage,
  gateway: DocsGateway | undefined,
  now = Date.now(),
): Promise<SignedInKeys | undefined> {
  const token = parseCookies(req.headers.cookie).get(SESSION_COOKIE);
  if (token === undefined || gateway?.storage === undefined || gateway.keys === undefined) return undefined;
  const db = await gateway.storage();
  const userId = await sessionUserId(db, token, now);
  const user = userId === undefined ? undefined : await findUserById(db, userId);
  if (user === undefined) return undefined;
  const owners = await keyOwners(db);
  const keys = (await gateway.keys.list()).filter(
    (key) => owners.get(key.publicId) === user.id && key.revokedAt === undefined && (key.expiresAt === undefined || key.expiresAt > now),
  );
  return { email: user.email, publicIds: keys.map((key) => key.publicId) };
}
