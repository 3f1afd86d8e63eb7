import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import type { StorageSchema } from './schema.js';
import { BACKSTOP_CHECKPOINT_PAGES, type WalCheckpointer } from './wal-checkpointer.js';

/** A connection that appends to a SQLite file (the ledger's, the outbox's). */
export interface WalWriter {
  readonly file: SQLite.Database;
  /** Call before each commit: the first hands the file to the checkpointer's thread. */
  beforeCommit(): void;
}

/**
 * Opens `path` for appending: WAL (readers never block the writer), `synchronous = NORMAL` (a
 * commit survives a process crash; only a power loss may lose the last ones), and a busy writer
 * waited for rather than failed. Given a `WalCheckpointer`, the file's WAL is checkpointed in that
 * thread from the first commit, and this connection's own commits checkpoint only past the
 * backstop. In memory there is no WAL (the mode stays `memory`), and nothing to checkpoint.
 */
export function openWalWriter(path: string, checkpoints?: WalCheckpointer): WalWriter {
  const file = new SQLite(path);
  const wal = file.pragma('journal_mode = WAL', { simple: true }) === 'wal';
  file.pragma('synchronous = NORMAL');
  file.pragma('busy_timeout = 5000');
  let unwatched = wal ? checkpoints : undefined;
  if (unwatched !== undefined) file.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  return {
    file,
    beforeCommit() {
      if (unwatched === undefined) return;
      unwatched.watch(path);
      unwatched = undefined;
    },
  };
}

/**
 * Has another connection to a watched file (the store's own, through Kysely) leave its checkpoints
 * to the thread as well: its commits checkpoint only past the backstop.
 */
export async function leaveCheckpointsToThread(db: Kysely<StorageSchema>): Promise<void> {
  await sql.raw(`PRAGMA wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`).execute(db);
}
