import { describe, expect, it } from 'vitest';
import { renderTargetsTable, type StoreConfigurationMeasured } from '../../bench/report.js';

const row = (cpuPerRequestRatio: number, cpuPerRequestUs: number): StoreConfigurationMeasured => ({
  cpuPerRequestRatio,
  cpuPerRequestUs,
  perSecondRatio: 1 / cpuPerRequestRatio,
  p50AddedMs: 0.1,
  p50Ms: 0.6,
});

describe('bench target rows', () => {
  it('should mark each configuration against its own target, and the second passthrough against none', () => {
    const table = renderTargetsTable({
      targets: { off: 1.1, default: 1.3, 'redis+keys': 1.4 },
      paths: {
        chat: {
          baseline: { cpuPerRequestUs: 100, p50Ms: 0.5 },
          configurations: {
            'passthrough again': row(1.02, 102),
            off: row(1.08, 108),
            default: row(1.35, 135),
            'redis+keys': row(1.38, 138),
          },
        },
      },
    });
    const lines = table.split('\n');
    const line = (name: string) => lines.find((text) => text.startsWith(`| chat | ${name} |`)) ?? '';
    expect(line('passthrough')).toContain('| 100 µs | 1.00× |');
    expect(line('passthrough again')).toContain('| 1.02× |  |');
    expect(line('off')).toContain('| 1.08× | ≤ 1.1× ✅ |');
    // 1.35× is within the off and redis+keys targets, but the default's is 1.3×.
    expect(line('default')).toContain('| 1.35× | ≤ 1.3× ❌ |');
    expect(line('redis+keys')).toContain('| 1.38× | ≤ 1.4× ✅ |');
  });
});
