import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LabelTotals } from '../../src/observability/label-totals.js';

describe('LabelTotals', () => {
  it('should keep series that share some label values apart, and add to each its own', async () => {
    const registry = new Registry();
    const totals = new LabelTotals({ name: 't_total', help: 'h', labelNames: ['a', 'b', 'c'], registers: [registry] });
    totals.add(1, 'x', 'y', 'z');
    totals.add(2, 'x', 'z', 'y');
    totals.add(4, 'x', 'y', 'y');
    totals.add(8, 'x', 'y', 'z');
    // A value that holds what a joined key would have used as its separator stays one value.
    totals.add(16, 'x\u0000y', '', 'z');
    const text = await registry.metrics();
    expect(text).toContain('t_total{a="x",b="y",c="z"} 9');
    expect(text).toContain('t_total{a="x",b="z",c="y"} 2');
    expect(text).toContain('t_total{a="x",b="y",c="y"} 4');
    expect(text).toContain('t_total{a="x\u0000y",b="",c="z"} 16');
    expect(text.match(/^t_total\{/gm)).toHaveLength(4);
  });

  it('should count a one-label series', async () => {
    const registry = new Registry();
    const totals = new LabelTotals({ name: 'one_total', help: 'h', labelNames: ['d'], registers: [registry] });
    totals.add(1, 'p');
    totals.add(0.5, 'p');
    expect(await registry.metrics()).toContain('one_total{d="p"} 1.5');
  });
});
