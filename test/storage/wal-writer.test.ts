import { describe, expect, it } from 'vitest';
import { WalCheckpointer } from '../../src/storage/wal-checkpointer.js';
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
