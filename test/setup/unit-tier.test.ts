import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICE_MARKERS, UNIT_TIER_EXCLUDE, UNIT_TIER_INCLUDE } from './unit-tier.js';

const root = join(import.meta.dirname, '../..');

/** The files a `dir/**\/*.test.ts` or `dir/*.test.ts` pattern names (the two shapes the tier uses). */
function filesOf(patterns: readonly string[]): string[] {
  return patterns.flatMap((pattern) => {
    const [, dir = '', deep] = /^(.*?)\/(\*\*\/)?\*\.test\.ts$/.exec(pattern) ?? [];
    const names = readdirSync(join(root, dir), { recursive: deep !== undefined }).map(String);
    return names.filter((name) => name.endsWith('.test.ts')).map((name) => `${dir}/${name}`);
  });
}

describe('the unit tier (npm run test:unit)', () => {
  it('should hold only files that reach no PostgreSQL, Redis or chromium', () => {
    const excluded = new Set(UNIT_TIER_EXCLUDE);
    const files = filesOf(UNIT_TIER_INCLUDE).filter((file) => !excluded.has(file));
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((file) => SERVICE_MARKERS.test(readFileSync(join(root, file), 'utf8')))).toEqual([]);
  });

  it('should leave out a file only because it uses a service', () => {
    for (const file of UNIT_TIER_EXCLUDE) expect(readFileSync(join(root, file), 'utf8')).toMatch(SERVICE_MARKERS);
  });
});
