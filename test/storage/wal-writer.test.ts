import { statSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { BACKSTOP_CHECKPOINT_PAGES, WalCheckpointer } from '../../src/storage/wal-checkpointer.js';
import { openWalWriter } from '../../src/storage/wal-writer.js';
import { useScratch } from '../helpers/scratch.js';

const scratch = useScratch();

function checkpointer(): WalCheckpointer {
  const checkpoints = new WalCheckpointer({ everyMs: 60_000 });
  scratch.later(() => checkpoints.close());
  return checkpoints;
}

describe('openWalWriter', () => {
  it('should open a file in WAL mode, synced at checkpoints, waiting for a busy writer', () => {
    const { file } = openWalWriter(scratch.file('settings'));
    scratch.later(() => file.close());
    expect(file.pragma('journal_mode', { simple: true })).toBe('wal');
    // 1 is NORMAL: a commit survives a crash of the process, not necessarily a power loss.
    expect(file.pragma('synchronous', { simple: true })).toBe(1);
    expect(file.pragma('busy_timeout', { simple: true })).toBe(5000);
    // Without a checkpointer, SQLite's own automatic checkpoint.
    expect(file.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it("should leave checkpoints to the checkpointer's thread from the first commit, its own only past the backstop", () => {
    const checkpoints = checkpointer();
    const writer = openWalWriter(scratch.file('watched'), checkpoints);
    scratch.later(() => writer.file.close());
    expect(writer.file.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    expect(checkpoints.started).toBe(false);
    writer.beforeCommit();
    expect(checkpoints.started).toBe(true);
    writer.beforeCommit();
    expect(checkpoints.started).toBe(true);
  });

  it("should checkpoint by its own commits only past the backstop, when the checkpointer's thread does not", () => {
    // Small pages, so that the backstop's 10,000 are 5 MB; a thread that checkpoints once an hour.
    const path = scratch.file('backstop');
    const create = new SQLite(path);
    create.pragma('page_size = 512');
    create.exec('CREATE TABLE blobs (value BLOB)');
    create.close();
    const checkpoints = new WalCheckpointer({ everyMs: 3_600_000 });
    scratch.later(() => checkpoints.close());
    const writer = openWalWriter(path, checkpoints);
    scratch.later(() => writer.file.close());
    const insert = writer.file.prepare('INSERT INTO blobs (value) VALUES (?)');
    const commit = writer.file.transaction(() => {
      for (let row = 0; row < 20; row += 1) insert.run(Buffer.alloc(400, row));
    });
    const walPages = () => Math.floor((statSync(`${path}-wal`).size - 32) / (512 + 24));
    let largest = 0;
    // About 2.5 times the backstop's pages, in commits of about 20.
    for (let commits = 0; commits < 1_300; commits += 1) {
      writer.beforeCommit();
      commit();
      largest = Math.max(largest, walPages());
    }
    // Past SQLite's own 1000 pages without a checkpoint; started over at the backstop (a WAL file
    // keeps its size, but written on from its beginning it grows no further).
    expect(largest).toBeGreaterThan(5 * 1000);
    // Never checkpointed, it would hold all of the 20,000 pages or more the rows take.
    expect(BACKSTOP_CHECKPOINT_PAGES).toBe(10_000);
    expect(largest).toBeLessThanOrEqual(BACKSTOP_CHECKPOINT_PAGES + 100);
  });

  it('should hand an in-memory database (no WAL) to no thread', () => {
    const checkpoints = checkpointer();
    const writer = openWalWriter(':memory:', checkpoints);
    scratch.later(() => writer.file.close());
    expect(writer.file.pragma('journal_mode', { simple: true })).toBe('memory');
    expect(writer.file.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    writer.beforeCommit();
    expect(checkpoints.started).toBe(false);
  });
});
