import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { percentile } from '../../src/status/percentile.js';
import { DATABASE_URL } from '../helpers/test-database.js';

describe('percentile', () => {
  it('should interpolate between ranks', () => {
    expect(percentile([], 0.5)).toBeUndefined();
    expect(percentile([7], 0.95)).toBe(7);
    expect(percentile([40, 10, 30, 20], 0.5)).toBe(25);
    expect(percentile([10, 20], 0.95)).toBeCloseTo(19.5);
  });

  it("should agree with PostgreSQL's percentile_cont", async () => {
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 60 }),
          fc.constantFrom(0.5, 0.95),
          async (values, p) => {
            const { rows } = await client.query<{ value: number }>(
              'select percentile_cont($1::float8) within group (order by v) as value from unnest($2::int[]) as v',
              [p, values],
            );
            expect(percentile(values, p)).toBeCloseTo(Number(rows[0]?.value), 6);
          },
        ),
        { numRuns: 50 },
      );
    } finally {
      await client.end();
    }
  });
});
