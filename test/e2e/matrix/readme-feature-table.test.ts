import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FEATURE_TABLE_END, FEATURE_TABLE_START, readFeatureTable, renderFeatureTable } from '../../helpers/feature-table.js';
import { MATRIX_UPSTREAMS } from './upstreams.js';

// The README and the guide's providers page carry the same table.
describe.each(['README.md', 'docs/providers-and-catalog.md'])('%s feature table', (file) => {
  it('should be the table rendered from the matrix definitions', () => {
    const text = readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
    const expected = renderFeatureTable(MATRIX_UPSTREAMS);
    const actual = readFeatureTable(text);
    const help =
      `${file} must hold, between ${FEATURE_TABLE_START} and ${FEATURE_TABLE_END}, ` +
      `the table rendered from test/e2e/matrix (renderFeatureTable):\n\n${expected}\n`;
    if (actual !== expected) console.error(help);
    expect(actual, help).toBe(expected);
  });

  it('should have one column per matrix upstream', () => {
    const header = renderFeatureTable(MATRIX_UPSTREAMS).split('\n')[0]!;
    expect(header.split('|').length - 2).toBe(MATRIX_UPSTREAMS.length + 2);
  });
});
