import { balances } from '../limits/balance-ledger.js';
import { findAbnormalSpend } from '../usage/abnormal-spend.js';
import { recordAdminAction } from './audit-log.js';
import { keyOwners } from './key-owners.js';
import { sendHtml } from './console-http.js';
import type { ResolvedConsoleOptions } from './console-options.js';
import { createPasswordReset } from './password-resets.js';
import { endUserSessions } from './sessions.js';
import { deleteUser, findUserById, keysOfUser, listUsers, setDisabled, setRole, type ConsoleUser } from './users.js';
import { usersPage, type UsersPageState } from './users-page.js';
import { notFound, type Visit } from './visitor-session.js';

/** The admin actions on one user, by the last part of `/users/<id>/<action>`. */
export const USER_ACTIONS = ['admin', 'member', 'disable', 'enable', 'delete', 'reset-link'] as const;
type UserAction = (typeof USER_ACTIONS)[number];

export async function showUsers(visit: Visit, options: ResolvedConsoleOptions, state: UsersPageState = {}, status = 200): Promise<void> {
  const withBalances = options.balances === undefined ? state : { ...state, balances: await balances(visit.db) };
  const owners = await keyOwners(visit.db);
  const unusual = new Set((await findAbnormalSpend(visit.db)).flatMap((spend) => owners.get(spend.keyId) ?? []));
  return sendHtml(
    visit.res,
    status,
    usersPage(visit.ctx, await listUsers(visit.db), options.registration, { ...withBalances, unusual }),
    visit.cookies,
  );
}

/**
 * One admin action on another user, recorded in the audit log. Disabling or deleting a user tells
 * every instance to drop their keys from its key cache (as a revocation does), so their keys are
 * refused at once; enabling does the same so they work again at once.
 */
export async function actOnUser(
  visit: Visit,
  options: ResolvedConsoleOptions,
  admin: ConsoleUser,
  targetId: string,
  action: UserAction,
): Promise<void> {
  const { db } = visit;
  const target = await findUserById(db, targetId);
  if (target === undefined) return notFound(visit);
  if (target.id === admin.id)
    return showUsers(visit, options, { error: 'You cannot change your own account here: ask another admin.' }, 400);
  switch (action) {
    case 'admin':
    case 'member':
      await setRole(db, target.id, action);
      await recordAdminAction(db, admin, 'user.role', target.email, action);
      return showUsers(visit, options, { info: `${target.email} is now ${action === 'admin' ? 'an admin' : 'a member'}.` });
    case 'disable':
    case 'enable': {
      await setDisabled(db, target.id, action === 'disable');
      if (action === 'disable') await endUserSessions(db, target.id);
      await options.keys.forgetKeys(await keysOfUser(db, target.id));
      await recordAdminAction(db, admin, action === 'disable' ? 'user.disabled' : 'user.enabled', target.email);
      options.logger.info({ userId: target.id, by: admin.id }, `switchyard: console user ${action}d`);
      return showUsers(visit, options, {
        info:
          action === 'disable'
            ? `${target.email} is disabled: they cannot sign in and their keys are refused.`
            : `${target.email} is enabled again.`,
      });
    }
    case 'delete': {
      const keys = await keysOfUser(db, target.id);
      for (const publicId of keys) await options.keys.revoke(publicId);
      await deleteUser(db, target.id);
      await recordAdminAction(db, admin, 'user.deleted', target.email, `${keys.length} key${keys.length === 1 ? '' : 's'} revoked`);
      options.logger.info({ userId: target.id, by: admin.id }, 'switchyard: console user deleted');
      return showUsers(visit, options, {
        info: `${target.email} is deleted and their keys are revoked; their usage stays in the reports.`,
      });
    }
    case 'reset-link': {
      const token = await createPasswordReset(db, target.id, admin.id);
      await recordAdminAction(db, admin, 'user.reset-link', target.email);
      return showUsers(visit, options, {
        link: { kind: 'reset', url: `${visit.origin}${visit.ctx.base}/reset-password?token=${token}`, email: target.email },
      });
    }
  }
}
