import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { recordEach, recordNothing, type Recorder, type RequestRecord } from '../../src/usage/record-stage.js';
import { requestRecord } from '../helpers/request-record.js';

function entry(requestId: string, durationMs = 10): RequestRecord {
  return requestRecord({ requestId, durationMs });
}

/** A recorder that notes `name:requestId` in `seen` for each entry it is told of. */
function noting(name: string, seen: string[], options: Partial<Recorder> = {}): Recorder {
  return { ...options, record: (record) => void seen.push(`${name}:${record.requestId}`) };
}

describe('recordEach', () => {
  it('should record the entries of one turn together after it, each stage taking the whole batch in turn', async () => {
    const seen: string[] = [];
    const recording = recordEach([noting('ledger', seen), noting('log', seen)]);
    recording.record(entry('a'));
    recording.record(entry('b'));
    expect(seen).toEqual([]);
    await nextTurn();
    expect(seen).toEqual(['ledger:a', 'ledger:b', 'log:a', 'log:b']);
    recording.record(entry('c'));
    await nextTurn();
    expect(seen.slice(4)).toEqual(['ledger:c', 'log:c']);
  });

  it('should record a batch at once when an entry was answered 5 ms or more after its first', async () => {
    const seen: string[] = [];
    const recording = recordEach([noting('ledger', seen)]);
    recording.record(entry('a', 10));
    recording.record(entry('b', 14.9));
    expect(seen).toEqual([]);
    recording.record(entry('c', 15));
    expect(seen).toEqual(['ledger:a', 'ledger:b', 'ledger:c']);
    recording.record(entry('d', 16));
    expect(seen).toHaveLength(3);
    await nextTurn();
    expect(seen).toEqual(['ledger:a', 'ledger:b', 'ledger:c', 'ledger:d']);
  });

  it('should record what is waiting at once on flush, and not again after the turn', async () => {
    const seen: string[] = [];
    const recording = recordEach([noting('ledger', seen)]);
    recording.record(entry('a'));
    recording.flush();
    expect(seen).toEqual(['ledger:a']);
    await nextTurn();
    expect(seen).toEqual(['ledger:a']);
  });

  it('should tell a stage that reads the request context of each entry at once, and the others after the turn', async () => {
    const seen: string[] = [];
    const recording = recordEach([noting('ledger', seen), noting('traces', seen, { inRequestContext: true })]);
    recording.record(entry('a'));
    expect(seen).toEqual(['traces:a']);
    await nextTurn();
    expect(seen).toEqual(['traces:a', 'ledger:a']);
  });

  it('should keep telling the other stages, and the next entries, when one throws', async () => {
    const seen: string[] = [];
    const errors: unknown[] = [];
    const failing: Recorder = {
      record(record) {
        if (record.requestId === 'a') throw new Error('disk full');
        seen.push(`failing:${record.requestId}`);
      },
    };
    const recording = recordEach([failing, noting('log', seen)], (error) => errors.push(error));
    recording.record(entry('a'));
    recording.record(entry('b'));
    await nextTurn();
    expect(seen).toEqual(['failing:b', 'log:a', 'log:b']);
    expect(errors).toEqual([new Error('disk full')]);
  });

  it('should ask for the upstream report when any stage wants it, and be nothing without stages', () => {
    expect(recordEach([noting('log', []), { record() {}, wantsUpstream: true, inRequestContext: true }]).wantsUpstream).toBe(true);
    expect(recordEach([noting('log', [])]).wantsUpstream).toBe(false);
    expect(recordEach([recordNothing])).toBe(recordNothing);
  });
});
