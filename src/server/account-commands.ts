import { Redis } from 'ioredis';
import { openRevocationChannel } from '../access/revocation-channel.js';
import { liftKeyPause, getKey } from '../access/stored-keys.js';
import { configError, GatewayError } from '../canonical/index.js';
import { recordAdminAction } from '../console/audit-log.js';
import { findUserByEmail } from '../console/users.js';
import { auditedCreditLimit, creditLimitText } from '../limits/account-top-ups.js';
import { creditLimitNanoUsdOf } from '../limits/credit-limits.js';
import { creditAccount, nanoUsdOf } from '../limits/top-up.js';
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

/** The console account with this e-mail address, or the CLI's refusal. */
async function accountByEmail(db: StorageDb, email: string) {
  const found = await findUserByEmail(db, email);
  if (found === undefined) throw configError('USER_NOT_FOUND', `No console account has the e-mail address '${email.trim()}'.`);
  return found.user;
}

/** An amount flag read by `parse`; a bad one is the CLI's flag error. */
function amountFlag(parse: () => number): number {
  try {
    return parse();
  } catch (error) {
    throw configError('CONFIG_FLAG_INVALID', GatewayError.isInstance(error) ? error.message : String(error));
  }
}

/**
 * `switchyard accounts top-up EMAIL --usd AMOUNT`: a row of the account's balance ledger and of the
 * audit log; with Redis in the config, running instances are told (as the console tells them).
 */
export async function topUpAccount(
  command: Extract<StoreCommand, { command: 'accounts-top-up' }>,
  db: StorageDb,
  gateway: GatewayRedis,
  write: (text: string) => void,
): Promise<void> {
  const user = await accountByEmail(db, command.email);
  const adjustment = command.kind === 'adjustment';
  const nanoUsd = amountFlag(() => nanoUsdOf(command.usd, adjustment));
  await creditAccount(db, { accountId: user.id, nanoUsd, kind: command.kind, actorId: CLI_ACTOR.id, note: command.note });
  const usd = `$${(nanoUsd / 1e9).toFixed(6)}`;
  await recordAdminAction(
    db,
    CLI_ACTOR,
    adjustment ? 'balance.adjustment' : 'balance.top-up',
    user.email,
    `${command.kind} ${usd}${command.note === undefined ? '' : ` — ${command.note}`}`,
  );
  await tellInstances(gateway, 'balances:', user.id);
  write(`${adjustment ? 'Adjusted' : 'Credited'} ${usd} ${adjustment ? 'on' : 'to'} the balance of ${user.email}.\n`);
}

/** `switchyard accounts credit-limit EMAIL --usd AMOUNT`: how far below zero the balance may go (0: not at all), audited. */
export async function setCreditLimitCommand(
  command: Extract<StoreCommand, { command: 'accounts-credit-limit' }>,
  db: StorageDb,
  gateway: GatewayRedis,
  write: (text: string) => void,
): Promise<void> {
  const user = await accountByEmail(db, command.email);
  const nanoUsd = amountFlag(() => creditLimitNanoUsdOf(command.usd));
  await auditedCreditLimit(db, user, nanoUsd, CLI_ACTOR);
  // Instances read the account's credits again, as after a top-up.
  await tellInstances(gateway, 'balances:', user.id);
  write(`The credit limit of ${user.email} is ${creditLimitText(nanoUsd)}.\n`);
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
