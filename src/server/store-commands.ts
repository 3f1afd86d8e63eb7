import { Redis } from 'ioredis';
import { openRevocationChannel } from '../access/revocation-channel.js';
import { createKey, listKeys, revokeKey, type StoredKey } from '../access/stored-keys.js';
import { configError } from '../canonical/index.js';
import { openDatabase, type Database } from '../storage/open-database.js';
import { queryUsage, type UsageTotals } from '../usage/usage-queries.js';
import type { LoadedConfig } from './config-schema.js';
import { loadConfig } from './load-config.js';
import type { StoreCommand } from './parse-store-flags.js';
import { resetPassword } from './reset-password.js';
import { setCreditLimitCommand, topUpAccount, unpauseKeyCommand } from './account-commands.js';
import { resolveServerDatabase } from './resolve-database.js';
import { formatTable } from './format-table.js';
import { createZeroConfig } from './zero-config.js';
import { formatReconciliation } from '../reconcile/format-reconciliation.js';
import { reconcile, sourceFor } from '../reconcile/reconcile.js';

type Write = (text: string) => void;

/** Nano-USD as dollars, to the cent when large and to six places when small. */
export function formatUsd(nanoUsd: number): string {
  const dollars = nanoUsd / 1e9;
  return `$${dollars >= 100 ? dollars.toFixed(2) : dollars.toFixed(6)}`;
}

const day = (epochMs: number | undefined) => (epochMs === undefined ? '-' : new Date(epochMs).toISOString().slice(0, 16).replace('T', ' '));

function statusOf(key: StoredKey, now: number): string {
  if (key.revokedAt !== undefined) return 'revoked';
  if (key.expiresAt !== undefined && key.expiresAt <= now) return 'expired';
  if (key.paused !== undefined) return 'paused';
  return 'active';
}

/** A total's cost as it may be shown: unknown parts are named, never counted as free. */
function spendOf(totals: UsageTotals | undefined): string {
  if (totals === undefined) return '$0';
  const priced = formatUsd(totals.costNanoUsd);
  return totals.unpriced === 0 ? priced : `${priced} + ${totals.unpriced} unpriced`;
}

async function openStore(command: StoreCommand, env: NodeJS.ProcessEnv): Promise<{ database: Database; config: LoadedConfig }> {
  const config = command.store.configPath === undefined ? createZeroConfig(env) : await loadConfig(command.store.configPath, env);
  const target = resolveServerDatabase(config, env, command.store.database);
  if (target === undefined || (typeof target === 'object' && 'db' in target)) {
    throw configError('CONFIG_DATABASE_MISSING', 'The config file says database: false: there are no stored keys or usage to work on.');
  }
  const database = await openDatabase(typeof target === 'string' ? { url: target } : target);
  return { database, config };
}

async function keysCreate(command: Extract<StoreCommand, { command: 'keys-create' }>, database: Database, write: Write): Promise<void> {
  const { key, stored } = await createKey(database.db, {
    name: command.name,
    ...(command.models === undefined ? {} : { models: command.models }),
    ...(command.expiresAt === undefined ? {} : { expiresAt: command.expiresAt }),
    ...(command.budget === undefined ? {} : { budget: command.budget }),
    ...(command.limits === undefined ? {} : { limits: command.limits }),
  });
  if (command.json) {
    write(`${JSON.stringify({ key, ...stored })}\n`);
    return;
  }
  write(
    `Created key '${stored.name}' (public id ${stored.publicId}).\nThis is the only time the key is shown; store it now:\n\n  ${key}\n\n`,
  );
}

async function keysList(command: Extract<StoreCommand, { command: 'keys-list' }>, database: Database, write: Write): Promise<void> {
  const keys = await listKeys(database.db);
  const spend = new Map((await queryUsage(database.db, { groupBy: 'key' })).map((totals) => [totals.group, totals]));
  if (command.json) {
    write(`${JSON.stringify(keys.map((key) => ({ ...key, usage: spend.get(key.publicId) ?? null })))}\n`);
    return;
  }
  if (keys.length === 0) {
    write('No stored keys. Create one with: switchyard keys create --name NAME\n');
    return;
  }
  const now = Date.now();
  const rows = keys.map((key) => [
    key.publicId,
    key.name,
    statusOf(key, now),
    day(key.createdAt),
    day(key.lastUsedAt),
    day(key.expiresAt),
    key.models?.join(',') ?? 'all',
    spendOf(spend.get(key.publicId)),
  ]);
  write(formatTable(['PUBLIC ID', 'NAME', 'STATUS', 'CREATED', 'LAST USED', 'EXPIRES', 'MODELS', 'SPEND'], rows));
}

async function keysRevoke(
  command: Extract<StoreCommand, { command: 'keys-revoke' }>,
  database: Database,
  config: LoadedConfig,
  write: Write,
): Promise<void> {
  const revoked = await revokeKey(database.db, command.publicId);
  const redisUrl = typeof config.gateway.redis === 'string' ? config.gateway.redis : undefined;
  if (redisUrl !== undefined) {
    // Running instances drop the key from their caches at once; without Redis, within their key cache TTL.
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    try {
      const channel = await openRevocationChannel(redis, config.gateway.redisPrefix ?? 'switchyard:', () => undefined);
      await channel.publish(command.publicId);
      await channel.close();
    } finally {
      redis.disconnect();
    }
  }
  if (!revoked) {
    const known = (await listKeys(database.db)).some((key) => key.publicId === command.publicId);
    throw configError(
      'KEY_NOT_FOUND',
      known
        ? `Key ${command.publicId} was already revoked.`
        : `No stored key has the public id '${command.publicId}'. See: switchyard keys list`,
    );
  }
  write(`Revoked key ${command.publicId}.\n`);
}

async function usage(command: Extract<StoreCommand, { command: 'usage' }>, database: Database, write: Write): Promise<void> {
  const totals = await queryUsage(database.db, {
    groupBy: command.by,
    ...(command.from === undefined ? {} : { from: command.from }),
    ...(command.to === undefined ? {} : { to: command.to }),
    ...(command.keyId === undefined ? {} : { keyId: command.keyId }),
    ...(command.model === undefined ? {} : { model: command.model }),
  });
  if (command.json) {
    write(`${JSON.stringify(totals)}\n`);
    return;
  }
  if (totals.length === 0) {
    write('No usage recorded for that selection.\n');
    return;
  }
  const heading = { key: 'KEY', model: 'MODEL', day: 'DAY (UTC)' }[command.by];
  const rows = totals.map((row) => [
    row.group ?? (command.by === 'key' ? '(configured key)' : '-'),
    String(row.requests),
    String(row.attempts),
    String(row.errors),
    String(row.partial),
    String(row.inputTokens),
    String(row.cachedInputTokens),
    String(row.outputTokens),
    String(row.reasoningTokens),
    spendOf(row),
  ]);
  write(formatTable([heading, 'REQUESTS', 'ATTEMPTS', 'FAILED', 'PARTIAL', 'INPUT', 'CACHED', 'OUTPUT', 'REASONING', 'COST'], rows));
}

/** The provider's usage report against the ledger; the admin key goes to the report's address only. */
async function reconcileCommand(
  command: Extract<StoreCommand, { command: 'reconcile' }>,
  database: Database,
  config: LoadedConfig,
  write: Write,
): Promise<void> {
  const source = sourceFor(config.reportSources ?? [], command.provider);
  const result = await reconcile(database.reads, source, command);
  write(command.json ? `${JSON.stringify(result)}\n` : formatReconciliation(result));
}

/** Runs `keys …`, `users …`, `usage`, `reconcile` or `migrate` against the database `serve` would use. */
export async function runStoreCommand(
  command: StoreCommand,
  env: NodeJS.ProcessEnv,
  write: Write = (text) => void process.stdout.write(text),
): Promise<void> {
  const { database, config } = await openStore(command, env);
  try {
    if (command.command === 'migrate') {
      const where = database.location;
      write(database.migrated.length === 0 ? `${where} is up to date.\n` : `${where}: ran ${database.migrated.join(', ')}.\n`);
    } else if (command.command === 'keys-create') await keysCreate(command, database, write);
    else if (command.command === 'keys-list') await keysList(command, database, write);
    else if (command.command === 'keys-revoke') await keysRevoke(command, database, config, write);
    else if (command.command === 'users-reset-password') await resetPassword(database.db, command.email, write);
    else if (command.command === 'reconcile') await reconcileCommand(command, database, config, write);
    else if (command.command === 'accounts-top-up') await topUpAccount(command, database.db, config.gateway, write);
    else if (command.command === 'accounts-credit-limit') await setCreditLimitCommand(command, database.db, config.gateway, write);
    else if (command.command === 'keys-unpause') await unpauseKeyCommand(command, database.db, config.gateway, write);
    else await usage(command, database, write);
  } finally {
    await database.close();
  }
}
