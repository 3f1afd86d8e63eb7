import { describe, expect, it } from 'vitest';
import { takeLease } from '../../src/storage/leases.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { useScratch } from '../helpers/scratch.js';

const scratch = useScratch();

describe.each(['sqlite', 'postgres'] as const)('leases on %s', (engine) => {
  it('should give a lease to one holder until it runs out, then to the next who asks', async () => {
    const database = await openDatabase(scratch.database(engine));
    scratch.later(() => database.close());
    const now = 1_000_000;
    const asked = await Promise.all(['a', 'b', 'c'].map((holder) => takeLease(database.db, 'job', holder, 1_000, now)));
    expect(asked.filter(Boolean)).toHaveLength(1);
    const holder = ['a', 'b', 'c'][asked.indexOf(true)]!;
    const other = holder === 'a' ? 'b' : 'a';
    expect(await takeLease(database.db, 'job', other, 1_000, now + 999)).toBe(false);
    expect(await takeLease(database.db, 'other-job', other, 1_000, now + 999)).toBe(true);
    expect(await takeLease(database.db, 'job', other, 1_000, now + 1_000)).toBe(true);
    expect(await takeLease(database.db, 'job', holder, 1_000, now + 1_500)).toBe(false);
  });
});
