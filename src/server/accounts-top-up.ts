import { Redis } from 'ioredis';
import { openRevocationChannel } from '../access/revocation-channel.js';
import { configError, GatewayError } from '../canonical/index.js';
import { recordAdminAction } from '../console/audit-log.js';
import { findUserByEmail } from '../console/users.js';
import { creditAccount, nanoUsdOf } from '../limits/top-up.js';
import type { StorageDb } from '../storage/schema.js';
import type { StoreCommand } from './parse-store-flags.js';

/** Who the audit log names for what the CLI did: whoever can run it on the server. */
const CLI_ACTOR = { id: 'cli', email: 'switchyard CLI' };

/**
 * `switchyard accounts top-up EMAIL --usd AMOUNT`: a row of the account's balance ledger and of the
 * audit log; with Redis in the config, running instances are told (as the console tells them).
 */
export async function topUpAccount(
  command: Extract<StoreCommand, { command: 'accounts-top-up' }>,
  db: StorageDb,
  gateway: { redis?: unknown; redisPrefix?: string | undefined },
  write: (text: string) => void,
): Promise<void> {
  const found = await findUserByEmail(db, command.email);
  if (found === undefined) throw configError('USER_NOT_FOUND', `No console account has the e-mail address '${command.email.trim()}'.`);
  let nanoUsd: number;
  try {
    nanoUsd = nanoUsdOf(command.usd, command.kind === 'adjustment');
  } catch (error) {
    throw configError('CONFIG_FLAG_INVALID', GatewayError.isInstance(error) ? error.message : String(error));
  }
  await creditAccount(db, { accountId: found.user.id, nanoUsd, kind: command.kind, actorId: CLI_ACTOR.id, note: command.note });
  await recordAdminAction(
    db,
    CLI_ACTOR,
    command.kind === 'adjustment' ? 'balance.adjustment' : 'balance.top-up',
    found.user.email,
    `${command.kind} $${(nanoUsd / 1e9).toFixed(6)}${command.note === undefined ? '' : ` — ${command.note}`}`,
  );
  if (typeof gateway.redis === 'string') {
    const redis = new Redis(gateway.redis, { maxRetriesPerRequest: 2 });
    try {
      const channel = await openRevocationChannel(redis, `${gateway.redisPrefix ?? 'switchyard:'}balances:`, () => undefined);
      await channel.publish(found.user.id);
      await channel.close();
    } finally {
      redis.disconnect();
    }
  }
  write(
    `${command.kind === 'adjustment' ? 'Adjusted' : 'Credited'} $${(nanoUsd / 1e9).toFixed(6)} ${command.kind === 'adjustment' ? 'on' : 'to'} the balance of ${found.user.email}.\n`,
  );
}
