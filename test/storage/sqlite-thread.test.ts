import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { SQLITE_THREAD_NICE, spawnSqliteThread, stopSqliteThread, threadError } from '../../src/storage/sqlite-thread.js';
import { useScratch } from '../helpers/scratch.js';

const scratch = useScratch();
const threads: Worker[] = [];

afterEach(async () => {
  await Promise.all(threads.splice(0).map((thread) => thread.terminate()));
});

/** A thread running `code` (after the shared prelude), and the first message it posts. */
function firstMessage(code: string, workerData: Record<string, unknown> = {}): Promise<unknown> {
  const thread = spawnSqliteThread(code, workerData);
  threads.push(thread);
  return new Promise((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
  });
}

describe('SQLite threads', () => {
  it('should run below the main thread in priority (Linux nice value)', async () => {
    // A thread's own line in /proc: its nice value is the 19th field, the 17th after the name's ')'.
    const stat = (await firstMessage(
      `parentPort.postMessage(require('node:fs').readFileSync('/proc/thread-self/stat', 'utf8'));`,
    )) as string;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    expect(Number(fields[16])).toBe(SQLITE_THREAD_NICE);
    expect(SQLITE_THREAD_NICE).toBeGreaterThan(0);
  });

  it('should give the code better-sqlite3 as SQLite, and its own workerData', async () => {
    const answer = await firstMessage(
      `const db = new SQLite(':memory:');
       parentPort.postMessage({ value: db.prepare('SELECT 40 + 2 AS value').get().value, label: workerData.label });
       db.close();`,
      { label: 'mine' },
    );
    expect(answer).toEqual({ value: 42, label: 'mine' });
  });

  it("should carry a SQLite error's message and code to the main thread, and a thrown string's text without a code", async () => {
    const missing = scratch.file('missing.db');
    const described = await firstMessage(
      `const errors = [];
       try { new SQLite(workerData.missing, { fileMustExist: true }); } catch (error) { errors.push(describeError(error)); }
       try { throw 'not an Error'; } catch (error) { errors.push(describeError(error)); }
       parentPort.postMessage(errors);`,
      { missing },
    );
    const [sqliteError, thrownString] = (described as Parameters<typeof threadError>[0][]).map(threadError);
    expect(sqliteError).toBeInstanceOf(Error);
    expect(sqliteError?.message).toMatch(/unable to open database file/);
    expect((sqliteError as Error & { code?: string }).code).toBe('SQLITE_CANTOPEN');
    expect(thrownString?.message).toBe('not an Error');
    expect(thrownString).not.toHaveProperty('code');
  });

  it('should ask a thread to stop and resolve only once it has exited, even unreferenced', async () => {
    const thread = spawnSqliteThread(
      `const timer = setInterval(() => undefined, 1000);
       parentPort.on('message', ({ close }) => {
         if (!close) return;
         clearInterval(timer);
         parentPort.close();
       });
       parentPort.postMessage('ready');`,
      {},
    );
    threads.push(thread);
    await new Promise((resolve) => thread.once('message', resolve));
    thread.unref();
    let exitCode: number | undefined;
    thread.once('exit', (code) => {
      exitCode = code;
    });
    await stopSqliteThread(thread);
    expect(exitCode).toBe(0);
    expect(thread.threadId).toBe(-1);
  });
});
