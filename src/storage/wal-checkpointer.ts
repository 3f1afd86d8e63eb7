import type { Worker } from 'node:worker_threads';
import { spawnSqliteThread, stopSqliteThread, type ThreadError, threadError } from './sqlite-thread.js';

/**
 * The thread's code (after sqlite-thread.ts's prelude): a read-write better-sqlite3 connection per
 * watched file, and a passive checkpoint of each every `everyMs`. A file whose checkpoint fails is
 * reported and left to its writer's own automatic checkpoints.
 */
const WORKER_CODE = `
const files = new Map();
const failed = (path, error) => {
  const db = files.get(path);
  files.delete(path);
  try {
    if (db !== undefined) db.close();
  } catch {}
  parentPort.postMessage({ path, error: describeError(error) });
};
const timer = setInterval(() => {
  for (const [path, db] of files) {
    try {
      // PASSIVE: copies the frames there were when it began (\`log\`), without waiting for the
      // writer or a reader. The writer goes on appending meanwhile, and starts the WAL over from
      // its beginning only at a commit that finds every frame copied: so passes follow until one
      // finds no frame the one before did not (each after the first copies only what came
      // during the one before, a commit or two).
      let [pass] = db.pragma('wal_checkpoint(PASSIVE)');
      for (let passes = 1; passes < workerData.maxPasses && pass.log > 0; passes += 1) {
        const [next] = db.pragma('wal_checkpoint(PASSIVE)');
        const caughtUp = next.log === pass.log && next.checkpointed === next.log;
        pass = next;
        if (caughtUp) break;
      }
      if (workerData.report && pass.log > 0) parentPort.postMessage({ path, log: pass.log, checkpointed: pass.checkpointed });
    } catch (error) {
      failed(path, error);
    }
  }
}, workerData.everyMs);
parentPort.on('message', ({ watch, close }) => {
  if (close) {
    clearInterval(timer);
    for (const db of files.values()) db.close();
    parentPort.close();
    return;
  }
  if (files.has(watch)) return;
  try {
    files.set(watch, new SQLite(watch, { fileMustExist: true }));
  } catch (error) {
    failed(watch, error);
  }
});
`;

/**
 * The automatic checkpoint a watched file's writer keeps, in pages: only if the thread falls far
 * behind (or lost the file) does a commit on the main thread checkpoint. SQLite's default is 1000.
 */
export const BACKSTOP_CHECKPOINT_PAGES = 10_000;

/** How often the thread checkpoints each file by default, in ms. */
const DEFAULT_EVERY_MS = 1000;

/** Checkpoint passes over a file at most, each time, while commits keep adding frames. */
const MAX_PASSES = 8;

/** One pass over a file that had frames in its WAL: how many, and how many are now in the database file. */
export interface CheckpointReport {
  path: string;
  log: number;
  checkpointed: number;
}

export interface WalCheckpointerOptions {
  everyMs?: number;
  /** A file the thread could not open or checkpoint: it is no longer watched. */
  onError?: (error: Error, path: string) => void;
  /** Each checkpoint that found frames in a file's WAL (tests, diagnostics). */
  onCheckpoint?: (report: CheckpointReport) => void;
}

type Message = CheckpointReport | { path: string; error: ThreadError };

/**
 * Checkpoints SQLite files' write-ahead logs in a worker thread. A checkpoint copies the WAL's
 * pages into the database file and syncs it; run by SQLite itself at the commit that takes the
 * WAL past 1000 pages, it held the event loop about 10 ms each time, a few times a second under
 * load, and a busy server's p99 at concurrency 64 with it (docs/performance.md, "Checkpoints off
 * the event loop"). The writers of watched files keep an automatic checkpoint only as a backstop
 * (`BACKSTOP_CHECKPOINT_PAGES`). The thread starts with the first `watch` and keeps the process
 * alive only while `close` waits for it.
 */
export class WalCheckpointer {
  readonly #everyMs: number;
  readonly #onError: (error: Error, path: string) => void;
  readonly #onCheckpoint: ((report: CheckpointReport) => void) | undefined;
  readonly #watched = new Set<string>();
  #worker: Worker | undefined;
  #closed = false;

  constructor(options: WalCheckpointerOptions = {}) {
    this.#everyMs = options.everyMs ?? DEFAULT_EVERY_MS;
    this.#onError = options.onError ?? (() => undefined);
    this.#onCheckpoint = options.onCheckpoint;
  }

  /** Whether its thread is up (a file was watched, and it was not closed or lost). */
  get started(): boolean {
    return this.#worker !== undefined;
  }

  /** Checkpoints the SQLite file at `path` (in WAL mode, already created) from now on. */
  watch(path: string): void {
    if (this.#closed || this.#watched.has(path)) return;
    this.#watched.add(path);
    (this.#worker ??= this.#spawn()).postMessage({ watch: path });
  }

  /** Stops the thread and closes its connections, once a checkpoint under way has ended. */
  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker !== undefined) await stopSqliteThread(worker);
  }

  #spawn(): Worker {
    const worker = spawnSqliteThread(WORKER_CODE, {
      everyMs: this.#everyMs,
      maxPasses: MAX_PASSES,
      // Reports only for a listener: otherwise nothing wakes the main thread after a checkpoint.
      report: this.#onCheckpoint !== undefined,
    });
    worker.on('message', (message: Message) => {
      if ('error' in message) {
        this.#watched.delete(message.path);
        this.#onError(threadError(message.error), message.path);
      } else this.#onCheckpoint?.(message);
    });
    const lost = (error: Error) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      // The writers' backstops take over; a later `watch` starts a new thread.
      for (const path of this.#watched) this.#onError(error, path);
      this.#watched.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`The WAL checkpointer stopped (exit code ${code}).`)));
    // After the listeners: a 'message' listener refs the worker's port again.
    worker.unref();
    return worker;
  }
}
