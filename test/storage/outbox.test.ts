import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Outbox } from '../../src/storage/outbox.js';

const files: string[] = [];
function outboxFile(): string {
  const file = join(tmpdir(), `switchyard-outbox-${randomBytes(6).toString('hex')}.db`);
  files.push(file);
  return file;
}

afterEach(() => {
  for (const file of files.splice(0)) for (const path of [file, `${file}-wal`, `${file}-shm`]) rmSync(path, { force: true });
});

describe('Outbox', () => {
  it('should give entries back oldest first, and remove them only when told', () => {
    const outbox = new Outbox(outboxFile());
    outbox.append([{ n: 1 }, { n: 2 }]);
    outbox.append([{ n: 3 }]);
    const first = outbox.peek(2);
    expect(first.map((entry) => JSON.parse(entry.json))).toEqual([{ n: 1 }, { n: 2 }]);
    expect(outbox.size).toBe(3);
    outbox.removeThrough(first[1]!.seq);
    expect(outbox.peek(10).map((entry) => JSON.parse(entry.json))).toEqual([{ n: 3 }]);
    outbox.close();
  });

  it('should keep what was appended when the process stops without closing it', () => {
    const file = outboxFile();
    const writing = new Outbox(file);
    writing.append([{ request: 'a' }, { request: 'b' }]);
    // No close: a second handle on the file sees the committed rows, as a restarted process would.
    const reopened = new Outbox(file);
    expect(reopened.peek(10).map((entry) => JSON.parse(entry.json))).toEqual([{ request: 'a' }, { request: 'b' }]);
    reopened.close();
    writing.close();
  });
});
