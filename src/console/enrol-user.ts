import type { StorageDb } from '../storage/schema.js';
import type { ResolvedConsoleOptions } from './console-options.js';
import { useInvite } from './invites.js';
import { createUser, type ConsoleUser } from './users.js';

/** Why a registration did not make an account. */
export type EnrolRefusal = 'closed' | 'invite' | 'admin-invite' | 'taken';

/** The marker row (in `gateway_secrets`, whose names are unique) that only the first account can insert. */
const FIRST_USER_CLAIM = 'console-first-user';

/** Rolls the transaction back (an invitation used or a first-user claim made for an account that was not made). */
class Refused extends Error {
  constructor(readonly reason: EnrolRefusal) {
    super(reason);
  }
}

/**
 * Makes an account if the rules allow it, deciding and inserting in one transaction, so concurrent
 * registrations cannot all pass one check: the first account is the one that inserts the claim row
 * (a unique name: a second insert waits for the first transaction, then finds it); an invitation is
 * used by a conditional update (used_at still null), which only one transaction can make. An address
 * listed in `admins` needs an invitation link (unless it is the first account): nothing else proves
 * who owns it, and open registration must not let anyone take it.
 */
export async function enrolUser(
  db: StorageDb,
  options: ResolvedConsoleOptions,
  init: { email: string; passwordHash: string; invite: string | undefined },
): Promise<{ user: ConsoleUser; first: boolean } | { refused: EnrolRefusal }> {
  try {
    return await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .insertInto('gateway_secrets')
        .values({ name: FIRST_USER_CLAIM, value: 'claimed', created_at: Date.now() })
        .onConflict((conflict) => conflict.column('name').doNothing())
        .executeTakeFirst();
      // A database from before the claim row has users but no claim: its first user is long made.
      const first =
        Number(claimed.numInsertedOrUpdatedRows ?? 0) === 1 &&
        (await trx.selectFrom('console_users').select('id').limit(1).executeTakeFirst()) === undefined;
      const reserved = options.admins.has(init.email);
      if (!first) {
        const needsInvite = reserved || options.registration !== 'open';
        if (needsInvite) {
          if (options.registration === 'closed' && !reserved) throw new Refused('closed');
          if (init.invite === undefined || !(await useInvite(trx, init.invite))) throw new Refused(reserved ? 'admin-invite' : 'invite');
        }
      }
      const user = await createUser(trx, { email: init.email, passwordHash: init.passwordHash, isAdmin: first || reserved });
      if (user === undefined) throw new Refused('taken');
      return { user, first };
    });
  } catch (error) {
    if (error instanceof Refused) return { refused: error.reason };
    throw error;
  }
}
