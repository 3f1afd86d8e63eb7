import { describe, expect, it, vi } from 'vitest';
import { formatLogLine, isoTime } from '../src/logger.js';

describe('isoTime', () => {
  it('should give what toISOString gives, across seconds, days and years', () => {
    const starts = [0, 999, 1000, 1_700_000_000_000, Date.UTC(2026, 11, 31, 23, 59, 59, 998), Date.UTC(2028, 1, 28, 23, 59, 59, 990)];
    for (const start of starts) {
      for (let now = start; now < start + 25; now += 1) expect(isoTime(now)).toBe(new Date(now).toISOString());
      // Back and forth between seconds: the prefix kept for one second must not leak into another.
      expect(isoTime(start + 1500)).toBe(new Date(start + 1500).toISOString());
      expect(isoTime(start + 7)).toBe(new Date(start + 7).toISOString());
    }
  });

  it('should read the clock when no time is given', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 27, 12, 0, 0, 42) });
    try {
      expect(isoTime()).toBe('2026-11-27T12:00:00.042Z');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('formatLogLine', () => {
  it('should write level, time, the fields in order, then msg', () => {
    const line = formatLogLine('info', { requestId: 'req_1', tokens: { input: 3 }, gone: undefined }, 'request', true);
    expect(Object.keys(JSON.parse(line) as object)).toEqual(['level', 'time', 'requestId', 'tokens', 'msg']);
    expect(JSON.parse(line)).toMatchObject({ level: 'info', requestId: 'req_1', tokens: { input: 3 }, msg: 'request' });
    expect(Date.parse((JSON.parse(line) as { time: string }).time)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('should write an Error among the fields as its name and message, never its stack', () => {
    const line = JSON.parse(formatLogLine('error', { error: new TypeError('bad thing') }, 'failed')) as Record<string, unknown>;
    expect(line.error).toEqual({ name: 'TypeError', message: 'bad thing' });
    expect(JSON.stringify(line)).not.toContain('at ');
  });

  it('should write a line without fields or message', () => {
    expect(Object.keys(JSON.parse(formatLogLine('warn', {})) as object)).toEqual(['level', 'time']);
  });

  it('should escape a message that needs it', () => {
    expect((JSON.parse(formatLogLine('warn', {}, 'a "quoted"\nline')) as { msg: string }).msg).toBe('a "quoted"\nline');
  });
});
