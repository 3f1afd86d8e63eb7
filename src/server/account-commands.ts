import { Redis } from 'ioredis';
import { openRevocationChannel } from '../access/revocation-channel.js';
import { liftKeyPause, getKey } from '../access/stored-keys.js';
import { configError, GatewayError } from '../canonical/index.js';
import { findUserByEmail } from '../console/users.js';
import { auditedCreditLimit, creditLimitText } from '../limits/account-top-ups.js';
import { creditLimitNanoUsdOf } from '../limits/credit-limits.js';
import { appendAuditRow } from '../storage/admin-audit.js';
import type { StorageDb } from '../storage/schema.js';
import type { StoreCommand } from './parse-store-flags.js';

/** Who the audit log names for what the CLI did: whoever can run it on the server. */
const CLI_ACTOR = { id: 'cli', email: 'switchyard CLI' };

type GatewayRedis = { redis?: unknown; redisPrefix?: string | undefined };

/** Tells running instances (with Redis in the config) on `channelPrefix`'s channel, as the console would. */
async function tellInstances(gateway: GatewayRedis, channelPrefix: string, id: string): Promise<void> {
  if (typeof gateway.redis !== 'string') return;
  const redis = new Redis(gateway.redis, { maxRetriesPerRequest: 2 });
  try {
    const channel = await openRevocationChannel(redis, `${gateway.redisPrefix ?? 'switchyard:'}${channelPrefix}`, () => undefined);
    await channel.publish(id);
    await channel.close();
  } finally {
    redis.disconnect();
  }
}

/** `switchyard accounts credit-limit EMAIL --usd AMOUNT`: how far below zero the balance may go (0: not at all), audited. */
export async function setCreditLimitCommand(
  command: Extract<StoreCommand, { command: 'accounts-credit-limit' }>,
  db: StorageDb,
  gateway: GatewayRedis,
  write: (text: string) => void,
): Promise<void> {
  const found = await findUserByEmail(db, command.email);
  if (found === undefined) throw configError('USER_NOT_FOUND', `No console account has the e-mail address '${command.email.trim()}'.`);
  let nanoUsd: number;
  try {
    nanoUsd = creditLimitNanoUsdOf(command.usd);
  } catch (error) {
    throw configError('CONFIG_FLAG_INVALID', GatewayError.isInstance(error) ? error.message : String(error));
  }
  await auditedCreditLimit(db, found.user, nanoUsd, CLI_ACTOR);
  // Instances read the account's credits again, as after a top-up.
  await tellInstances(gateway, 'balances:', found.user.id);
  write(`The credit limit of ${found.user.email} is ${creditLimitText(nanoUsd)}.\n`);
}

/** `switchyard keys unpause PUBLIC_ID`: lifts a pause for unusual spend, audited; running instances forget the key. */
export async function unpauseKeyCommand(
  command: Extract<StoreCommand, { command: 'keys-unpause' }>,
  db: StorageDb,
  gateway: GatewayRedis,
  write: (text: string) => void,
): Promise<void> {
  const key = await getKey(db, command.publicId);
  if (key === undefined || key.revokedAt !== undefined)
    throw configError('KEY_NOT_FOUND', `No active stored key has the public id '${command.publicId}'. See: switchyard keys list`);
  if (!(await liftKeyPause(db, command.publicId))) {
    write(`Key ${command.publicId} is not paused.\n`);
    return;
  }
  await appendAuditRow(db, {
    actorId: CLI_ACTOR.id,
    actorEmail: CLI_ACTOR.email,
    action: 'key.unpaused',
    target: command.publicId,
    detail: key.paused?.reason,
  });
  await tellInstances(gateway, '', command.publicId);
  write(`Lifted the pause of key ${command.publicId}.\n`);
}
