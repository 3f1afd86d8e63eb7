import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The worker's code, run with `eval` so it needs no file of its own: a connection per database
 * file, and a PASSIVE checkpoint of each every interval (it never waits for readers or writers).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.module);
const files = workerData.files.map((path) => new SQLite(path));
const checkpoint = () => {
  for (const file of files) {
    try { file.pragma('wal_checkpoint(PASSIVE)'); } catch (error) { parentPort.postMessage(String(error)); }
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message.add !== undefined) {
    files.push(new SQLite(message.add));
    return;
  }
  clearInterval(timer);
  checkpoint();
  for (const file of files) file.close();
  process.exit(0);
});
`;

/**
 * Checkpoints SQLite write-ahead logs from a worker thread. A checkpoint copies the log into the
 * database and syncs it to disk, which takes milliseconds: done by SQLite's automatic checkpoint
 * in the connection that commits, it would stall the event loop. Connections that write set
 * `wal_autocheckpoint = 0` and leave it to this.
 */
export class WalCheckpointer {
  readonly #worker: Worker;
  #closed = false;

  constructor(files: readonly string[], intervalMs: number, onError: (error: unknown) => void) {
    const module = createRequire(import.meta.url).resolve('better-sqlite3');
    this.#worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, files: [...files], intervalMs } });
    this.#worker.on('message', (message: string) => onError(new Error(`WAL checkpoint failed: ${message}`)));
    this.#worker.on('error', onError);
    this.#worker.unref();
  }

  /** Checkpoints `file` too from now on. */
  add(file: string): void {
    if (!this.#closed) this.#worker.postMessage({ add: file });
  }

  /** A last checkpoint, then the worker stops. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const exited = new Promise<void>((resolve) => this.#worker.once('exit', () => resolve()));
    this.#worker.postMessage({ stop: true });
    await exited;
  }
}
