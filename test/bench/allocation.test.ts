import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { allocationRowOf, collectionTotalsOf, renderAllocationTable } from '../../bench/allocation.js';
import { instructionConfigurations } from '../../bench/instruction-configurations.js';

// Lines as Node 20's V8 prints them under --trace-gc-nvp (the fields between those read are cut).
const scavenge =
  '[7405:0x3835cd60]     1481 ms: pause=3.7 mutator=174.1 gc=s reduce_memory=0 scavenge=3.67 total_size_before=49219040 allocated=16087304 promoted=561056 new_space_survived=555200 nodes_promoted=144 promotion_ratio=3.4%';
const markCompact =
  '[12486:0x13100e50]       40 ms: pause=11.7 mutator=0.5 gc=mc reduce_memory=0 mark=8.1 allocated=6015448 promoted=6043496 nodes_promoted=0 promotion_rate=100.0%';

describe('bench --allocation', () => {
  it('should sum what the collections of a stretch of output allocated and promoted, skipping other lines', () => {
    const totals = collectionTotalsOf(`listening 4000\n${scavenge}\n${scavenge}\nkey sk-sy-x\n${markCompact}\n`);
    expect(totals).toEqual({
      allocated: 2 * 16087304 + 6015448,
      promoted: 2 * 561056 + 6043496,
      scavenges: 2,
      fullCollections: 1,
      pauseMs: 3.7 + 3.7 + 11.7,
    });
    expect(collectionTotalsOf('listening 4000\n')).toEqual({ allocated: 0, promoted: 0, scavenges: 0, fullCollections: 0, pauseMs: 0 });
  });

  it('should read the lines this Node prints', () => {
    const printed = execFileSync(
      process.execPath,
      ['--trace-gc-nvp', '--expose-gc', '-e', 'const kept = []; for (let i = 0; i < 3e5; i++) kept.push({ i }); gc();'],
      {
        encoding: 'utf8',
      },
    );
    const totals = collectionTotalsOf(printed);
    expect(totals.scavenges).toBeGreaterThan(0);
    expect(totals.fullCollections).toBeGreaterThanOrEqual(1);
    // 300,000 objects kept: most of them were promoted.
    expect(totals.allocated).toBeGreaterThan(3e5 * 16);
    expect(totals.promoted).toBeGreaterThan(3e5 * 8);
  });

  it('should take each measure per request as the median of the rounds, and sum the full collections', () => {
    const totals = (allocated: number, promoted: number, full: number) => ({
      allocated,
      promoted,
      scavenges: 4,
      fullCollections: full,
      pauseMs: 2,
    });
    const row = allocationRowOf('chat', 'off', [
      { requests: 1000, cpuMicros: 50_000, totals: totals(12_000_000, 40_000, 0) },
      { requests: 2000, cpuMicros: 120_000, totals: totals(26_000_000, 60_000, 1) },
      { requests: 1000, cpuMicros: 55_000, totals: totals(13_000_000, 90_000, 1) },
    ]);
    expect(row).toMatchObject({
      allocatedPerRequest: 13_000,
      promotedPerRequest: 40,
      scavengesPerThousand: 4,
      fullCollections: 2,
      cpuMicrosPerRequest: 55,
      rounds: 3,
    });
    expect(() => allocationRowOf('chat', 'off', [])).toThrow(/no rounds/);
  });

  it('should render a row per path and configuration, with the configurations named below', () => {
    const off = instructionConfigurations.find((configuration) => configuration.name === 'off')!;
    const row = allocationRowOf('messages', 'off', [
      { requests: 100, cpuMicros: 5000, totals: { allocated: 1_234_500, promoted: 3_100, scavenges: 1, fullCollections: 0, pauseMs: 0.5 } },
    ]);
    const table = renderAllocationTable([row], [off], { date: '2026-11-30', node: 'v20.20.2', seconds: 4, rounds: 1, warmSeconds: 20 });
    expect(table).toContain('| messages | off | 12,345 | 31 | 10.00 | 0 | 5.00 | 50.0 |');
    expect(table).toContain(`- \`off\`: ${off.description}`);
  });
});
