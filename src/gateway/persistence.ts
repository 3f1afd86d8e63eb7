import { Redis } from 'ioredis';
import type { KeyCheck } from '../access/authenticate-stage.js';
import type { ApiKeyVerifier } from '../access/authenticate.js';
import { KeyCache } from '../access/key-cache.js';
import { KeyService } from '../access/key-service.js';
import { LastUsedWriter } from '../access/last-used-writer.js';
import { openRevocationChannel, type RevocationChannel } from '../access/revocation-channel.js';
import { createStoredKeyAuthentication } from '../access/stored-key-authentication.js';
import { sharedSecret } from '../access/shared-secret.js';
import { TokenService } from '../access/token-service.js';
import { DatabaseHandle } from '../storage/database-handle.js';
import { pingDatabase } from '../storage/ping-database.js';
import type { Database } from '../storage/open-database.js';
import { Outbox } from '../storage/outbox.js';
import { SqliteLedgerAppender } from '../storage/sqlite-ledger-appender.js';
import { WalCheckpointer } from '../storage/wal-checkpointer.js';
import { leaveCheckpointsToThread } from '../storage/wal-writer.js';
import type { StorageDb, UsageLedgerRow } from '../storage/schema.js';
import type { InterruptedStreamPolicy } from '../usage/cut-stream-usage.js';
import { createLedgerStage, type LedgerStage, type PriceUsage } from '../usage/ledger-stage.js';
import { LedgerWriter, type LedgerCounters } from '../usage/ledger-writer.js';
import { queryUsage, spentByToken, spentSince, type UsageQuery, type UsageTotals } from '../usage/usage-queries.js';
import { MemoryBudgetStore, type BudgetStore } from '../limits/budget-store.js';
import { RedisBudgetStore } from '../limits/redis-budget-store.js';
import type { Logger } from '../logger.js';

export interface LedgerOptions {
  /** The durable outbox file rows wait in while the database is away. Default: `<database file>.outbox`, or `./switchyard-outbox.db` with PostgreSQL. */
  outbox?: string;
  /** How a stream cut short is billed (docs/keys-usage-budgets.md, "Interrupted streams"). Default `'estimate'`. */
  interruptedStreams?: InterruptedStreamPolicy;
  /** Rows per database write. Default 500. */
  batchSize?: number;
  /** How long rows gather before a write, in ms. Default 200. */
  intervalMs?: number;
  /**
   * How long finished rows gather in memory before one commit (to the database file or the outbox),
   * in ms: what a crash can lose, against one commit's cost shared by more rows. Default 50.
   */
  commitEveryMs?: number;
  /**
   * How often a thread of its own checkpoints the SQLite files the rows go to (the ledger's file,
   * the outbox), copying their write-ahead logs into them, in ms. Default 1000.
   */
  checkpointEveryMs?: number;
}

export interface PersistenceOptions {
  /** A SQLite file path, a `postgres://` URL (with a schema), or a database opened with `openDatabase`. */
  database: string | { url: string; schema?: string } | Database;
  /** A `redis://` URL or an ioredis client: revocations reach every instance at once. */
  redis?: string | Redis | undefined;
  /** Prefix of every Redis key and channel. Default `switchyard:`. */
  redisPrefix?: string | undefined;
  /** How long a stored-key lookup is trusted, in ms. Default 5000. */
  keyCacheTtlMs?: number | undefined;
  /** How long a budget counter's Redis call may take before the request is refused (503), in ms. Default 1000. */
  storeTimeoutMs?: number | undefined;
  /** The usage ledger; on by default with a database, `false` turns it off. */
  ledger?: LedgerOptions | false | undefined;
  price?: PriceUsage | undefined;
}

/** What the gateway keeps in a database (and shares through Redis): stored keys and the usage ledger. */
export interface Persistence {
  readonly database: DatabaseHandle;
  readonly keys: KeyService;
  /** Mints browser tokens (`POST /v1/tokens`). */
  readonly tokens: TokenService;
  /** The "authenticate" stage over stored keys, beside the keys from the options. */
  authentication(verifyConfigured: ApiKeyVerifier | undefined): KeyCheck;
  /** The "record" stage writing the ledger; undefined when the ledger is off. */
  readonly ledger: LedgerStage | undefined;
  /** The ledger writer's counters: rows written, waiting, failed writes. */
  ledgerCounters(): LedgerCounters | undefined;
  usage(query: UsageQuery): Promise<UsageTotals[]>;
  /** Budget counters: in Redis when configured (shared by every instance), else in memory. */
  readonly budgets: BudgetStore;
  /** What a key's ledger rows cost since `since` (epoch ms), in nano-USD. */
  spentInLedger(keyId: string, since: number): Promise<number>;
  spentByToken(tokenId: string): Promise<number>;
  /** The Redis client the stores share, when one is configured. */
  readonly redis: Redis | undefined;
  /** Resolves once the database answered a query (`/ready`); rejects while it is not open or does not answer. */
  pingDatabase(): Promise<void>;
  /** Writes what waits (ledger rows, last-used times), then closes what it opened. */
  close(): Promise<void>;
}

const KEY_CACHE_MAX_ENTRIES = 10_000;
/** A good key keeps working from the cache this long while the database is unreachable. */
const KEY_STALE_MS = 3_600_000;
const LAST_USED_INTERVAL_MS = 30_000;

function defaultOutboxPath(database: PersistenceOptions['database']): string {
  if (typeof database !== 'string') return 'switchyard-outbox.db';
  if (database === ':memory:') return ':memory:';
  return database.startsWith('postgres://') || database.startsWith('postgresql://') ? 'switchyard-outbox.db' : `${database}.outbox`;
}

export function openPersistence(options: PersistenceOptions, logger: Logger): Persistence {
  const source = typeof options.database === 'string' ? { url: options.database } : options.database;
  const database = new DatabaseHandle(source, (error, retryInMs) =>
    logger.error(
      { error, ...(retryInMs === undefined ? {} : { retryInMs }) },
      retryInMs === undefined ? 'switchyard: the database cannot be opened' : 'switchyard: the database cannot be reached yet; retrying',
    ),
  );
  const current = (): StorageDb | undefined => database.current?.db;
  const ready = async (): Promise<StorageDb> => (await database.ready()).db;
  const openNow = (): StorageDb => {
    const db = current();
    if (db === undefined) throw new Error('the database is not open yet');
    return db;
  };

  const cache = new KeyCache({ ttlMs: options.keyCacheTtlMs ?? 5_000, staleMs: KEY_STALE_MS, maxEntries: KEY_CACHE_MAX_ENTRIES });
  const keys = new KeyService(
    ready,
    cache,
    (event, keyId, name) => logger.info({ keyId, ...(name === undefined ? {} : { keyName: name }) }, `switchyard: key ${event}`),
    (keyId, error) =>
      logger.warn(
        { keyId, error },
        'switchyard: could not tell other instances of a key change through Redis; they drop it from their key cache within its TTL',
      ),
  );
  const lastUsed = new LastUsedWriter(current, LAST_USED_INTERVAL_MS, (error) =>
    logger.warn({ error }, "switchyard: could not save keys' last-used times"),
  );

  const ownsRedis = typeof options.redis === 'string';
  const redis = typeof options.redis === 'string' ? new Redis(options.redis, { lazyConnect: false }) : options.redis;
  let channel: Promise<RevocationChannel | undefined> = Promise.resolve(undefined);
  if (redis !== undefined) {
    redis.on('error', (error: unknown) => logger.warn({ error }, 'switchyard: Redis error'));
    channel = openRevocationChannel(redis, options.redisPrefix ?? 'switchyard:', (publicId) => cache.forget(publicId)).then(
      (opened) => {
        keys.useRevocationChannel(opened);
        return opened;
      },
      (error: unknown) => {
        logger.error(
          { error },
          'switchyard: cannot subscribe to key revocations in Redis; other instances learn of them within the key cache TTL',
        );
        return undefined;
      },
    );
  }

  let writer: LedgerWriter | undefined;
  let ledger: LedgerStage | undefined;
  // The ledger's files are checkpointed in a thread of their own, not by commits on the event loop.
  const checkpoints =
    options.ledger === false
      ? undefined
      : new WalCheckpointer({
          ...(options.ledger?.checkpointEveryMs === undefined ? {} : { everyMs: options.ledger.checkpointEveryMs }),
          onError: (error, path) =>
            logger.warn({ error, path }, 'switchyard: cannot checkpoint a SQLite file in the background; its commits checkpoint it'),
        });
  // A local SQLite database takes rows directly (the outbox then only holds rows while it is not open).
  let appender: SqliteLedgerAppender | undefined;
  const direct = () => {
    const open = database.current;
    if (open === undefined || open.engine !== 'sqlite' || open.location === ':memory:') return undefined;
    if (appender === undefined) {
      appender = new SqliteLedgerAppender(open.location, checkpoints);
      // The store's own connection commits to the same file (keys, last-used times): its commits
      // leave the checkpoints to the thread as well, unless the WAL reaches the backstop.
      if (checkpoints !== undefined)
        leaveCheckpointsToThread(open.db).catch((error: unknown) =>
          logger.warn({ error }, "switchyard: cannot set the database connection's automatic checkpoint"),
        );
    }
    const target = appender;
    return (rows: readonly UsageLedgerRow[]) => target.append(rows);
  };
  if (options.ledger !== false) {
    const ledgerOptions = options.ledger ?? {};
    writer = new LedgerWriter({
      db: () => database.current,
      direct,
      outbox: new Outbox(ledgerOptions.outbox ?? defaultOutboxPath(options.database), checkpoints),
      ...(ledgerOptions.batchSize === undefined ? {} : { batchSize: ledgerOptions.batchSize }),
      ...(ledgerOptions.intervalMs === undefined ? {} : { intervalMs: ledgerOptions.intervalMs }),
      ...(ledgerOptions.commitEveryMs === undefined ? {} : { commitEveryMs: ledgerOptions.commitEveryMs }),
      onError: (error, where) =>
        logger.warn(
          { error },
          where === 'outbox'
            ? 'switchyard: cannot write usage rows to the outbox'
            : 'switchyard: cannot write usage rows to the database; they wait in the outbox',
        ),
    });
    ledger = createLedgerStage({
      writer,
      ...(ledgerOptions.interruptedStreams === undefined ? {} : { interruptedStreams: ledgerOptions.interruptedStreams }),
      ...(options.price === undefined ? {} : { price: options.price }),
      onError: (error) => logger.warn({ error }, 'switchyard: could not estimate the usage of an interrupted stream'),
    });
  }

  let secret: Buffer | undefined;
  let loadingSecret: Promise<Buffer> | undefined;
  const tokenSecret = (): Buffer | Promise<Buffer> =>
    secret ??
    (loadingSecret ??= Promise.resolve(current())
      .then((db) => {
        // Fails at once while the database is away, rather than holding the request.
        if (db === undefined) throw new Error('the database is not open yet');
        return sharedSecret(db, 'browser-token-signing');
      })
      .then(
        (loaded) => (secret = loaded),
        (error: unknown) => {
          loadingSecret = undefined;
          throw error;
        },
      ));

  const prefix = options.redisPrefix ?? 'switchyard:';
  const sharedBudgets =
    redis === undefined
      ? undefined
      : new RedisBudgetStore(
          redis,
          prefix,
          (error) => logger.warn({ error }, 'switchyard: could not settle a budget reservation in Redis'),
          options.storeTimeoutMs,
        );
  const budgets: BudgetStore = sharedBudgets ?? new MemoryBudgetStore();

  return {
    database,
    keys,
    budgets,
    redis,
    tokens: new TokenService(tokenSecret),
    // Fail at once while the database is away (the request gets a 503), rather than hold the request.
    spentInLedger: async (keyId, since) => spentSince(openNow(), keyId, since),
    spentByToken: async (tokenId) => spentByToken(openNow(), tokenId),
    authentication: (verifyConfigured) =>
      createStoredKeyAuthentication({
        db: current,
        cache,
        ...(verifyConfigured === undefined ? {} : { verifyConfigured }),
        onUsed: (publicId) => lastUsed.used(publicId),
        tokenSecret,
      }),
    ledger,
    ledgerCounters: () => writer?.counters,
    async pingDatabase() {
      const open = database.current;
      if (open === undefined) {
        const why = database.lastError;
        throw new Error(`the database is not open${why instanceof Error ? `: ${why.message}` : ''}`);
      }
      await pingDatabase(open);
    },
    usage: async (query) => queryUsage((await database.ready()).reads, query),
    async close() {
      await ledger?.settled();
      await writer?.close();
      await checkpoints?.close();
      appender?.close();
      await lastUsed.close();
      await (await channel)?.close();
      sharedBudgets?.close();
      if (ownsRedis) redis?.disconnect();
      await database.close();
    },
  };
}
