import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** A SQLite thread's nice value (Linux): below the main thread's 0 in priority, so requests go first. */
export const SQLITE_THREAD_NICE = 10;

/**
 * What every SQLite thread's code starts with. On Linux a thread has its own nice value: its work
 * gives way to the requests on a busy CPU. `SQLite` is better-sqlite3, resolved by the main thread
 * (an eval'd worker has no module of its own to resolve from); `describeError` turns what a
 * statement threw into what a message can carry.
 */
const PRELUDE = `
const { parentPort, workerData } = require('node:worker_threads');
if (process.platform === 'linux') {
  try {
    require('node:os').setPriority(0, workerData.nice);
  } catch {}
}
const SQLite = require(workerData.module);
const describeError = (error) => ({
  message: String(error && error.message !== undefined ? error.message : error),
  code: error && error.code,
});
`;

/** An error as a SQLite thread's message carries it (`describeError`: `code` is null for a thrown null). */
export interface ThreadError {
  message: string;
  code?: string | null;
}

/**
 * Starts a worker thread running `code`, plain CommonJS run with `eval` (so it runs the same from
 * the TypeScript sources and from the build), after the prelude above; `workerData` reaches it
 * with `module` and `nice` added. The code must end the thread when it receives `{ close: true }`
 * (`stopSqliteThread`).
 */
export function spawnSqliteThread(code: string, workerData: Record<string, unknown>): Worker {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  return new Worker(PRELUDE + code, { eval: true, workerData: { ...workerData, module, nice: SQLITE_THREAD_NICE } });
}

/**
 * Asks a thread to stop and waits until it has. Asked rather than terminated: terminating a thread
 * while better-sqlite3 is in a statement or throws can abort the whole process ("FATAL ERROR:
 * v8::ToLocalChecked Empty MaybeLocal", seen on Node 24). Referenced until it has stopped: a
 * process that ends meanwhile would terminate it itself.
 */
export async function stopSqliteThread(worker: Worker): Promise<void> {
  worker.ref();
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.postMessage({ close: true });
  await exited;
}

/** The `Error` a thread's message describes, with its SQLite code when it had one. */
export function threadError(described: ThreadError): Error {
  const error = new Error(described.message);
  return described.code === undefined || described.code === null ? error : Object.assign(error, { code: described.code });
}
