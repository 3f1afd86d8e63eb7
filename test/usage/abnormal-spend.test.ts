import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/storage/open-database.js';
import { findAbnormalSpend, recentRequestsOf } from '../../src/usage/abnormal-spend.js';
import { testDatabase, type TestDatabase } from '../helpers/test-database.js';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 28, 12);
const opened: Array<{ test: TestDatabase; database: Database }> = [];
afterEach(async () => {
  for (const { test, database } of opened.splice(0)) {
    await database.close();
    await test.remove();
  }
});

let sequence = 0;
/** One priced ledger row of `keyId`, `hoursAgo` before NOW, costing `usd`. */
const row = (keyId: string, hoursAgo: number, usd: number) => ({
  request_id: `req_${(sequence += 1)}`,
  attempt: 1,
  at: NOW - hoursAgo * HOUR,
  key_public_id: keyId,
  protocol: 'chat',
  model: 'priced',
  stream: 0,
  status: 200,
  billing: 'complete',
  input_tokens: 10,
  output_tokens: 10,
  cost_nano_usd: Math.round(usd * 1e9),
});

describe.each(['sqlite', 'postgres'] as const)('abnormal spend (%s)', (engine) => {
  it('should flag a key at 10× its trailing hourly average, not a steady key nor one under the floor', async () => {
    const test = testDatabase(engine);
    const database = await test.open();
    opened.push({ test, database });
    const rows = [];
    for (let hour = 1; hour <= 24; hour += 1) {
      rows.push(row('steady', hour + 0.5, 0.5), row('jumper', hour + 0.5, 0.5));
    }
    // The last hour: the steady key as always; the jumper at 10×, in ten requests; a new key under $1.
    rows.push(row('steady', 0.5, 0.5), row('newcomer', 0.5, 0.9));
    for (let n = 0; n < 10; n += 1) rows.push(row('jumper', 0.1 + n * 0.05, 0.5));
    await database.db.insertInto('usage_ledger').values(rows).execute();

    const flagged = await findAbnormalSpend(database.db, NOW);
    expect(flagged).toEqual([{ keyId: 'jumper', lastHourNanoUsd: 5e9, hourlyAverageNanoUsd: 0.5e9 }]);
    // The last requests that caused it, newest first.
    const recent = await recentRequestsOf(database.db, 'jumper', 10);
    expect(recent).toHaveLength(10);
    expect(recent.every((request) => request.at >= NOW - HOUR && request.costNanoUsd === 0.5e9)).toBe(true);
    expect(recent[0]!.at).toBeGreaterThan(recent[9]!.at);
  });
});
