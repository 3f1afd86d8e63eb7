import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BatchedLines, FLUSH_CHARS, FLUSH_MS } from '../../src/observability/batched-lines.js';

function target() {
  const writes: string[] = [];
  let ended = 0;
  return { writes, ended: () => ended, write: (text: string) => void writes.push(text), end: () => void (ended += 1) };
}

describe('BatchedLines', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('should hand the lines of a few milliseconds to its target in one write', () => {
    const into = target();
    const lines = new BatchedLines(into);
    lines.write('a\n');
    lines.write('b\n');
    vi.advanceTimersByTime(FLUSH_MS - 1);
    lines.write('c\n');
    expect(into.writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(into.writes).toEqual(['a\nb\nc\n']);
    // A lone line waits no longer than that.
    lines.write('d\n');
    vi.advanceTimersByTime(FLUSH_MS);
    expect(into.writes).toEqual(['a\nb\nc\n', 'd\n']);
    lines.end();
  });

  it('should hold lines for the window it is given instead of the default', () => {
    const into = target();
    const lines = new BatchedLines(into, 500);
    lines.write('a\n');
    vi.advanceTimersByTime(FLUSH_MS * 2);
    expect(into.writes).toEqual([]);
    vi.advanceTimersByTime(500 - FLUSH_MS * 2);
    expect(into.writes).toEqual(['a\n']);
    lines.end();
  });

  it('should write at once when it holds enough text, without waiting for the timer', () => {
    const into = target();
    const lines = new BatchedLines(into);
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < FLUSH_CHARS / line.length - 1; i++) lines.write(line);
    expect(into.writes).toEqual([]);
    lines.write(line);
    expect(into.writes).toHaveLength(1);
    expect(into.writes[0]).toHaveLength(FLUSH_CHARS);
    // Nothing is left for the timer to write.
    vi.advanceTimersByTime(FLUSH_MS);
    expect(into.writes).toHaveLength(1);
    lines.end();
  });

  it('should write what it holds and end its target when ended, and keep nothing for the exit', () => {
    const into = target();
    const before = process.listenerCount('exit');
    const lines = new BatchedLines(into);
    expect(process.listenerCount('exit')).toBe(before + 1);
    lines.write('last\n');
    lines.end();
    expect(into.writes).toEqual(['last\n']);
    expect(into.ended()).toBe(1);
    expect(process.listenerCount('exit')).toBe(before);
    vi.advanceTimersByTime(FLUSH_MS);
    expect(into.writes).toEqual(['last\n']);
    // A line after the end (a request recorded late) is dropped, never handed to the closed target.
    expect(lines.write('late\n')).toBe(false);
    lines.end();
    vi.advanceTimersByTime(FLUSH_MS);
    expect(into.writes).toEqual(['last\n']);
    expect(into.ended()).toBe(1);
  });
});
