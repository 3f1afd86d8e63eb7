import { GatewayError } from '../canonical/index.js';
import { openDatabase, type Database, type OpenDatabaseOptions } from './open-database.js';

/** Longest wait between attempts to open a database that cannot be reached. */
const MAX_RETRY_MS = 30_000;

/**
 * A database the gateway opens in the background, so that it starts (and serves what needs no
 * database) while the database is away: opening is retried until it succeeds. A configuration
 * error (a bad schema name) is not retried.
 */
export class DatabaseHandle {
  #current: Database | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;
  readonly #ready: Promise<Database>;
  readonly #owned: boolean;
  #lastError: unknown;

  /** `source`: options to open with, or a database the caller opened (and closes). */
  constructor(source: OpenDatabaseOptions | Database, onError: (error: unknown, retryInMs: number | undefined) => void) {
    if ('db' in source) {
      this.#owned = false;
      this.#current = source;
      this.#ready = Promise.resolve(source);
      return;
    }
    this.#owned = true;
    this.#ready = new Promise<Database>((resolve, reject) => {
      const attempt = (delayMs: number) => {
        openDatabase(source).then(
          (database) => {
            if (this.#closed) {
              void database.close();
              reject(closedError());
              return;
            }
            this.#current = database;
            resolve(database);
          },
          (error: unknown) => {
            this.#lastError = error;
            const permanent = GatewayError.isInstance(error) && error.code.startsWith('CONFIG_');
            if (permanent || this.#closed) {
              onError(error, undefined);
              reject(error);
              return;
            }
            const next = Math.min(MAX_RETRY_MS, delayMs * 2);
            onError(error, next);
            this.#retry = setTimeout(() => attempt(next), next).unref();
          },
        );
      };
      attempt(500);
    });
    // Waiters get the rejection; an unawaited handle must not crash the process with it.
    this.#ready.catch(() => undefined);
  }

  /** The open database; undefined until it could be opened. */
  get current(): Database | undefined {
    return this.#current;
  }

  /** Why the last attempt to open failed, while it is not open. */
  get lastError(): unknown {
    return this.#current === undefined ? this.#lastError : undefined;
  }

  /** Resolves once open; rejects on a configuration error or when closed first. */
  ready(): Promise<Database> {
    return this.#ready;
  }

  /** Stops retrying and closes the database if this handle opened it. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    if (this.#owned) await this.#current?.close();
    this.#current = undefined;
  }
}

function closedError(): GatewayError {
  return new GatewayError({ code: 'DATABASE_CLOSED', message: 'The gateway was closed before its database opened.' });
}
