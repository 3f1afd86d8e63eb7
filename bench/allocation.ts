// `npm run bench -- --allocation`: what each configuration asks of V8's heap per request. Each
// server runs alone on core 0 under `node --trace-gc-nvp`, which prints one line per collection with
// the bytes allocated since the last one and the bytes it promoted to the old generation; the bench
// sums the lines printed during a measured load. Allocation decides how often the young generation is
// collected and how much fresh memory each request writes (a write miss per 64 bytes once the young
// generation outgrows the core's cache); promotion decides how often the old generation is collected
// in full, whose concurrent work and final pause land in the p99 at concurrency 64.

import type { InstructionConfiguration } from './instruction-configurations.js';
import type { BenchPath } from './bodies.js';
import { median } from './report.js';

/** The sums of the `--trace-gc-nvp` lines in a stretch of a server's output. */
export interface CollectionTotals {
  /** Bytes allocated since the collection before, summed. */
  allocated: number;
  /** Bytes moved to the old generation. */
  promoted: number;
  /** Young-generation collections (`gc=s`). */
  scavenges: number;
  /** Full collections: mark-compact (`gc=mc`) and mark-sweep (`gc=ms`). */
  fullCollections: number;
  /** Main-thread pause of all of them, ms. */
  pauseMs: number;
}

const NVP_LINE = /\bpause=([\d.]+)\b.*?\bgc=(\w+)\b.*?\ballocated=(\d+)\b.*?\bpromoted=(\d+)\b/;

/** Sums the collections `text` reports; lines that are not `--trace-gc-nvp` lines are skipped. */
export function collectionTotalsOf(text: string): CollectionTotals {
  const totals: CollectionTotals = { allocated: 0, promoted: 0, scavenges: 0, fullCollections: 0, pauseMs: 0 };
  for (const line of text.split('\n')) {
    const match = NVP_LINE.exec(line);
    if (match === null) continue;
    const [, pause, kind, allocated, promoted] = match;
    totals.pauseMs += Number(pause);
    totals.allocated += Number(allocated);
    totals.promoted += Number(promoted);
    if (kind === 's') totals.scavenges += 1;
    else if (kind === 'mc' || kind === 'ms') totals.fullCollections += 1;
  }
  return totals;
}

/** One measured load: its requests, the collections during it and the server's CPU. */
export interface AllocationRound {
  requests: number;
  cpuMicros: number;
  totals: CollectionTotals;
}

/** A table row: the medians of a configuration's rounds on one path (full collections: the sum). */
export interface AllocationRow {
  path: BenchPath;
  configuration: string;
  allocatedPerRequest: number;
  promotedPerRequest: number;
  scavengesPerThousand: number;
  fullCollections: number;
  pauseMicrosPerRequest: number;
  cpuMicrosPerRequest: number;
  rounds: number;
}

/** The row of one configuration's rounds on one path. */
export function allocationRowOf(path: BenchPath, configuration: string, rounds: readonly AllocationRound[]): AllocationRow {
  if (rounds.length === 0) throw new Error(`no rounds measured for ${configuration} on ${path}`);
  const per = (pick: (round: AllocationRound) => number) => median(rounds.map((round) => pick(round) / round.requests));
  return {
    path,
    configuration,
    allocatedPerRequest: per((round) => round.totals.allocated),
    promotedPerRequest: per((round) => round.totals.promoted),
    scavengesPerThousand: per((round) => round.totals.scavenges * 1000),
    fullCollections: rounds.reduce((sum, round) => sum + round.totals.fullCollections, 0),
    pauseMicrosPerRequest: per((round) => round.totals.pauseMs * 1000),
    cpuMicrosPerRequest: per((round) => round.cpuMicros),
    rounds: rounds.length,
  };
}

export interface AllocationTableFacts {
  date: string;
  node: string;
  seconds: number;
  rounds: number;
  warmSeconds: number;
}

/** The markdown table, with its method above and the configurations' legend below. */
export function renderAllocationTable(
  rows: readonly AllocationRow[],
  configurations: readonly InstructionConfiguration[],
  facts: AllocationTableFacts,
): string {
  const bytes = (value: number) => Math.round(value).toLocaleString('en-US');
  const lines = [
    `Heap allocation per request, ${facts.date}, Node ${facts.node} (--trace-gc-nvp): each server alone on core 0, wrk at concurrency 64 on core 1, non-streaming; ${facts.warmSeconds} s of load on each path first, then ${facts.rounds} rounds of ${facts.seconds} s per path; medians of the rounds, full collections summed over them. CPU per request is measured with the trace on (it prints a line per collection), so compare it within this table only.`,
    '',
    '| path | configuration | allocated B/request | promoted B/request | scavenges per 1,000 requests | full collections | GC pause µs/request | CPU µs/request |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.path} | ${row.configuration} | ${bytes(row.allocatedPerRequest)} | ${bytes(row.promotedPerRequest)} | ${row.scavengesPerThousand.toFixed(2)} | ${row.fullCollections} | ${row.pauseMicrosPerRequest.toFixed(2)} | ${row.cpuMicrosPerRequest.toFixed(1)} |`,
    ),
    '',
    ...configurations.map((configuration) => `- \`${configuration.name}\`: ${configuration.description}`),
  ];
  return lines.join('\n');
}
