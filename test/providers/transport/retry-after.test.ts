import { describe, expect, it } from 'vitest';
import { readRetryAfter } from '../../../src/providers/transport/retry-after.js';

describe('readRetryAfter', () => {
  it('should prefer retry-after-ms', () => {
    expect(readRetryAfter({ 'retry-after-ms': '1500', 'retry-after': '9' })).toBe(1.5);
  });

  it('should read seconds and HTTP dates', () => {
    expect(readRetryAfter({ 'retry-after': '7' })).toBe(7);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(readRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, now)).toBe(30);
  });

  it('should ignore absent or unreadable values', () => {
    expect(readRetryAfter({})).toBeUndefined();
    expect(readRetryAfter({ 'retry-after': 'soon' })).toBeUndefined();
  });
});
