import { describe, expect, it } from 'vitest';
import { renderTargetsTable, type StoreConfigurationMeasured } from '../../bench/report.js';

const row = (cpuPerRequestRatios: number[], cpuPerRequestUs: number, alone?: number[], stages?: string[]): StoreConfigurationMeasured => ({
  cpuPerRequestRatio: [...cpuPerRequestRatios].sort()[1]!,
  cpuPerRequestRatios,
  ...(stages === undefined ? {} : { stages }),
  cpuPerRequestUs,
  perSecondRatio: 1 / cpuPerRequestRatios[0]!,
  p50AddedMs: 0.1,
  p50Ms: 0.6,
  ...(alone === undefined
    ? {}
    : {
        alone: {
          cpuPerRequestRatio: [...alone].sort()[1]!,
          cpuPerRequestRatios: alone,
          cpuPerRequestUs: cpuPerRequestUs - 10,
          baselineCpuPerRequestUs: 90,
        },
      }),
});

describe('bench target rows', () => {
  it('should mark each configuration against its own target, list every round at once and alone, and name the stages run', () => {
    const table = renderTargetsTable({
      targets: { off: 1.1, default: 1.3, 'redis+keys': 1.4 },
      paths: {
        chat: {
          baseline: { cpuPerRequestUs: 100, p50Ms: 0.5 },
          configurations: {
            'passthrough again': row([1.02, 0.97, 1.05], 102, [1.01, 0.99, 1.0]),
            off: row([1.08, 1.12, 1.04], 108, [1.02, 1.03, 1.01], ['authenticate', 'fit', 'police', 'call']),
            default: row([1.35, 1.31, 1.4], 135, [1.2, 1.25, 1.22], ['record', 'authenticate', 'fit', 'police', 'admit', 'call']),
            'redis+keys': row([1.38, 1.45, 1.3], 138),
          },
        },
      },
    });
    const lines = table.split('\n');
    const line = (name: string) => lines.find((text) => text.startsWith(`| chat | ${name} |`)) ?? '';
    expect(line('passthrough')).toContain('| 100 µs | 1.00× | | 90 µs | 1.00× |');
    // Which stages each row's requests ran: what its cost over the passthrough is made of.
    expect(line('passthrough')).toMatch(/ms \| — \| — \|$/);
    expect(line('off')).toMatch(/\| authenticate → fit → police → call \|$/);
    expect(line('default')).toMatch(/\| record → authenticate → fit → police → admit → call \|$/);
    expect(line('passthrough again')).toContain('| 1.02× (1.02, 0.97, 1.05) |  | 92 µs | 1.00× (1.01, 0.99, 1.00) |');
    expect(line('off')).toContain('| 1.08× (1.08, 1.12, 1.04) | ≤ 1.1× ✅ | 98 µs | 1.02× (1.02, 1.03, 1.01) |');
    // 1.35× is within the off and redis+keys targets, but the default's is 1.3×; alone does not decide it.
    expect(line('default')).toContain('| 1.35× (1.35, 1.31, 1.40) | ≤ 1.3× ❌ | 125 µs | 1.22× (1.20, 1.25, 1.22) |');
    // A row measured only at once leaves the alone cells empty.
    expect(line('redis+keys')).toContain('| 1.38× (1.38, 1.45, 1.30) | ≤ 1.4× ✅ | | |');
  });
});
