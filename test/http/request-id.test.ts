import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createRequestId, millisecondsHex } from '../../src/http/request-id.js';

describe('createRequestId', () => {
  it('is req_ + 32 hex characters, and unique', () => {
    const ids = Array.from({ length: 10_000 }, createRequestId);
    for (const id of ids.slice(0, 100)) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorts in creation order across milliseconds (the ledger key grows at its end)', async () => {
    const earlier = Array.from({ length: 300 }, createRequestId);
    await sleep(3);
    const later = Array.from({ length: 300 }, createRequestId);
    const lastEarlier = [...earlier].sort().at(-1)!;
    const firstLater = [...later].sort()[0]!;
    expect(firstLater > lastEarlier).toBe(true);
    const atMs = Number.parseInt(later[0]!.slice(4, 16), 16);
    expect(Math.abs(atMs - Date.now())).toBeLessThan(1_000);
  });

  it('writes the time as 12 hex digits, as toString(16) padded would', () => {
    const times = [0, 1, 0xffffff, 0x1000000, 0x1000001, Date.now(), Date.UTC(2026, 10, 29, 12), 2 ** 31, 2 ** 48 - 1];
    for (let step = 0; step < 2_000; step += 1) times.push(Math.floor(Math.random() * 2 ** 48));
    for (const ms of times) expect(millisecondsHex(ms)).toBe(ms.toString(16).padStart(12, '0'));
  });
});
