import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BatchedLines } from '../../src/observability/batched-lines.js';

function target() {
  const writes: string[] = [];
  let ended = 0;
  return { writes, ended: () => ended, write: (text: string) => void writes.push(text), end: () => void (ended += 1) };
}

describe('BatchedLines', () => {
  it('should hand the lines of one turn to its target in one write, at the end of the turn', async () => {
    const into = target();
    const lines = new BatchedLines(into);
    lines.write('a\n');
    lines.write('b\n');
    lines.write('c\n');
    expect(into.writes).toEqual([]);
    await nextTurn();
    expect(into.writes).toEqual(['a\nb\nc\n']);
    lines.write('d\n');
    await nextTurn();
    expect(into.writes).toEqual(['a\nb\nc\n', 'd\n']);
    lines.end();
  });

  it('should write what it holds and end its target when ended, and keep nothing for the exit', async () => {
    const into = target();
    const before = process.listenerCount('exit');
    const lines = new BatchedLines(into);
    expect(process.listenerCount('exit')).toBe(before + 1);
    lines.write('last\n');
    lines.end();
    expect(into.writes).toEqual(['last\n']);
    expect(into.ended()).toBe(1);
    expect(process.listenerCount('exit')).toBe(before);
    await nextTurn();
    expect(into.writes).toEqual(['last\n']);
    // A line after the end (a request recorded late) is dropped, never handed to the closed target.
    expect(lines.write('late\n')).toBe(false);
    lines.end();
    await nextTurn();
    expect(into.writes).toEqual(['last\n']);
    expect(into.ended()).toBe(1);
  });
});
