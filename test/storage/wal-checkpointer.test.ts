import { closeSync, copyFileSync, openSync, readSync, statSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/open-database.js';
import { Outbox } from '../../src/storage/outbox.js';
import { SqliteLedgerAppender } from '../../src/storage/sqlite-ledger-appender.js';
import { type CheckpointReport, WalCheckpointer } from '../../src/storage/wal-checkpointer.js';
import { useScratch } from '../helpers/scratch.js';

const scratch = useScratch();
const PAGE = 4096;

/** The rows of `table` in the database file alone, as a copy without its WAL reads it: what checkpoints put there. */
function rowsInFileAlone(path: string, table: string): number {
  const copy = scratch.file('copy');
  copyFileSync(path, copy);
  const file = new SQLite(copy);
  try {
    // The table's creation may itself be in the WAL still.
    const created = file.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(table) !== undefined;
    return created ? (file.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n : 0;
  } finally {
    file.close();
  }
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A checkpointer whose reports (and errors) the test can wait for; closed after the test. */
function checkpointer(everyMs: number) {
  const reports: CheckpointReport[] = [];
  const errors: Array<{ error: Error; path: string }> = [];
  const checkpoints = new WalCheckpointer({
    everyMs,
    onCheckpoint: (report) => reports.push(report),
    onError: (error, path) => errors.push({ error, path }),
  });
  scratch.later(() => checkpoints.close());
  return { checkpoints, reports, errors };
}

describe('WalCheckpointer', () => {
  it("should copy a watched file's WAL into the file in its thread, so the writer starts the WAL over", async () => {
    const path = scratch.file('wal');
    const writer = new SQLite(path);
    scratch.later(() => writer.close());
    expect(writer.pragma('journal_mode = WAL', { simple: true })).toBe('wal');
    // The writer never checkpoints itself: whatever reaches the file, the thread put there.
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('CREATE TABLE blobs (value BLOB)');
    const insert = writer.prepare('INSERT INTO blobs (value) VALUES (?)');
    const batch = writer.transaction(() => {
      for (let row = 0; row < 40; row += 1) insert.run(Buffer.alloc(2000, row));
    });
    const { checkpoints, reports } = checkpointer(10);
    checkpoints.watch(path);

    // 20 batches of about 20 pages each, a checkpoint after each: without them the WAL would
    // hold all 400 pages; each commit after a complete checkpoint writes from its beginning again.
    for (let round = 0; round < 20; round += 1) {
      batch();
      const seen = reports.length;
      await waitFor(() => reports.length > seen, `checkpoint ${round + 1}`);
    }
    expect(reports.every((report) => report.path === path && report.checkpointed === report.log)).toBe(true);
    expect(statSync(`${path}-wal`).size).toBeLessThan(100 * PAGE);
    expect(rowsInFileAlone(path, 'blobs')).toBe(800);
  });

  it('should let the writer start the WAL over while it commits every few milliseconds', async () => {
    const path = scratch.file('busy');
    const writer = new SQLite(path);
    scratch.later(() => writer.close());
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('CREATE TABLE blobs (value BLOB)');
    const insert = writer.prepare('INSERT INTO blobs (value) VALUES (?)');
    const commit = writer.transaction((first: number) => {
      for (let row = first; row < first + 8; row += 1) insert.run(Buffer.alloc(3000, row));
    });
    const { checkpoints, reports } = checkpointer(100);
    checkpoints.watch(path);

    // A commit of 8 rows (about 8 pages) every 2 ms, 600 in all. A checkpoint copies the frames
    // there were when it began, and commits came meanwhile: unless the thread passes again until
    // it has caught up between two commits, the writer never starts the WAL over. Each start
    // gives the WAL's header new salts (bytes 16-23).
    const header = Buffer.alloc(8);
    const salts = new Set<string>();
    const wal = openSync(`${path}-wal`, 'r');
    scratch.later(() => closeSync(wal));
    let commits = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        commit(commits * 8);
        readSync(wal, header, 0, 8, 16);
        salts.add(header.toString('hex'));
        commits += 1;
        if (commits === 600) {
          clearInterval(timer);
          resolve();
        }
      }, 2);
    });
    expect(reports.length).toBeGreaterThan(3);
    // The first salts, then a new pair at each start: 8–12 pairs in all on a loaded 2-core machine,
    // where one pass a time leaves the first pair alone.
    expect(salts.size).toBeGreaterThan(1);
  });

  it('should report a file it cannot open, and stop watching it', async () => {
    const { checkpoints, errors } = checkpointer(10);
    const missing = scratch.file('missing');
    checkpoints.watch(missing);
    await waitFor(() => errors.length > 0, 'the error');
    expect(errors[0]?.path).toBe(missing);
    expect(errors[0]?.error.message).toMatch(/does not exist|unable to open/i);
  });

  it("should checkpoint the SQLite ledger's file once rows are appended to it", async () => {
    const path = scratch.file('ledger');
    const database = await openDatabase({ url: path });
    scratch.later(() => database.close());
    const { checkpoints } = checkpointer(10);
    const appender = new SqliteLedgerAppender(path, checkpoints);
    scratch.later(() => appender.close());
    const rows = Array.from({ length: 5 }, (_, index) => ({
      request_id: `req_${index}`,
      attempt: 0,
      at: 1_700_000_000_000 + index,
      protocol: 'chat',
      stream: 0,
      status: 200,
      billing: 'full',
      input_tokens: 3,
      output_tokens: 4,
      cost_nano_usd: 0,
      latency_ms: 5,
    }));
    expect(appender.append(rows)).toBe(5);
    // Five rows are far below SQLite's own 1000-page checkpoint: only the thread copies them.
    await waitFor(() => rowsInFileAlone(path, 'usage_ledger') === 5, 'the rows in the file');
  });

  it("should checkpoint the outbox's file once entries are appended to it", async () => {
    const path = scratch.file('outbox');
    const { checkpoints } = checkpointer(10);
    const outbox = new Outbox(path, checkpoints);
    scratch.later(() => outbox.close());
    outbox.append([{ row: 1 }, { row: 2 }, { row: 3 }]);
    await waitFor(() => rowsInFileAlone(path, 'outbox') === 3, 'the entries in the file');
  });

  it('should start no thread for an outbox in memory, which has no WAL', async () => {
    const { checkpoints, reports, errors } = checkpointer(10);
    const outbox = new Outbox(':memory:', checkpoints);
    scratch.later(() => outbox.close());
    outbox.append([{ row: 1 }]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reports).toEqual([]);
    expect(errors).toEqual([]);
    expect(checkpoints.started).toBe(false);
  });
});
