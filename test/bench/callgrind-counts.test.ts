import { describe, expect, it } from 'vitest';
import { cacheMisses, estimatedCycles, jitCompilation, oldGenerationGc, readCallgrindCounts } from '../../bench/callgrind-counts.js';

// A dump as callgrind writes it (compressed names, a call's inclusive cost on the line after
// `calls=`, relative positions): a JIT frame runs 500 instructions itself and calls TurboFan,
// which runs 300 itself and calls its pipeline (700) and, inside, lazy compilation again (40);
// an incremental-marking task (30) runs from the event loop.
const dump = `# callgrind format
version: 1
creator: callgrind-3.19.0
positions: line
events: Ir
summary: 1625

ob=(1) ???
fl=(1) ???
fn=(1) 0x000000000d1a4700
0 500
cob=(2) /usr/bin/node
cfi=(1)
cfn=(2) v8::internal::Runtime_CompileOptimized(int, unsigned long*, v8::internal::Isolate*)
calls=2 0
0 1040
cfn=(4) Builtins_LoadIC
calls=5 0
0 55

ob=(2)
fn=(2)
0 300
cfn=(3) v8::internal::compiler::PipelineCompilationJob::ExecuteJobImpl(v8::internal::RuntimeCallStats*, v8::internal::LocalIsolate*)
calls=1 0
0 700
cfn=(5) v8::internal::Runtime_CompileLazy(int, unsigned long*, v8::internal::Isolate*)'2
calls=1 0
0 40

fn=(3)
0 650
+2 50

fn=(4)
0 55

fn=(5)
* 40

fn=(6) uv_run
cfn=(7) v8::internal::IncrementalMarkingJob::Task::RunInternal()
calls=1 0
0 30

fn=(7)
0 20
cfn=(8) v8::internal::IncrementalMarking::Step(double, unsigned long, v8::internal::StepOrigin)
calls=1 0
0 10

fn=(8)
0 10

totals: 1625
`;

describe('readCallgrindCounts', () => {
  const groups = { compile: jitCompilation, gc: oldGenerationGc };

  it('should count every instruction of the window once, from the functions’ own cost lines', () => {
    expect(readCallgrindCounts(dump, groups).instructions).toBe(1625);
  });

  it('should set apart what ran inside each group, callees included, without counting nested entries twice', () => {
    // compile: TurboFan's 300 + its pipeline's 700 + the lazy compile inside it (40, already in the 1040).
    // gc: the marking task's 20 + the step it took (10, already in the 30).
    expect(readCallgrindCounts(dump, groups).inside).toEqual({ compile: 1040, gc: 30 });
  });

  it('should set nothing apart when no function matches', () => {
    expect(readCallgrindCounts(dump, { none: /^no such function$/ }).inside).toEqual({ none: 0 });
  });

  it('should count a call into a function named only by its id after the first use', () => {
    // The second call into (2) names it only as `cfn=(2)`.
    const again = dump.replace('totals: 1625', 'fn=(4)\n0 5\ncfn=(2)\ncalls=1 0\n0 20\n\ntotals: 1630');
    expect(readCallgrindCounts(again, groups)).toMatchObject({ instructions: 1630, inside: { compile: 1060, gc: 30 } });
  });

  it('should count only instructions when the dump has no other event', () => {
    expect(readCallgrindCounts(dump, groups).events).toEqual({ Ir: 1625 });
  });
});

// With `--cache-sim=yes` a cost line carries one number per event of the `events:` line, and
// leaves out trailing zeros: a JIT frame (its own 100 instructions, with misses at every level)
// calls lazy compilation (50 instructions, misses of the first level only).
const simulated = `# callgrind format
version: 1
positions: line
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw

fn=(1) 0x000000000d1a4700
0 100 30 10 5 2 1 1 1 1
cfn=(2) v8::internal::Runtime_CompileLazy(int, unsigned long*, v8::internal::Isolate*)
calls=1 0
0 50 10 5 3 1

fn=(2)
0 50 10 5 3 1

totals: 150 40 15 8 3 1 1 1 1
`;

describe('readCallgrindCounts with simulated caches', () => {
  const counts = readCallgrindCounts(simulated, { compile: jitCompilation });

  it('should sum every event, a missing trailing one as 0', () => {
    expect(counts.events).toEqual({ Ir: 150, Dr: 40, Dw: 15, I1mr: 8, D1mr: 3, D1mw: 1, ILmr: 1, DLmr: 1, DLmw: 1 });
    expect(counts.instructions).toBe(150);
  });

  it('should set apart every event of what ran inside a group', () => {
    expect(counts.insideEvents.compile).toEqual({ Ir: 50, Dr: 10, Dw: 5, I1mr: 3, D1mr: 1, D1mw: 0, ILmr: 0, DLmr: 0, DLmw: 0 });
    expect(counts.inside.compile).toBe(50);
  });

  it('should add up the misses of each level and estimate cycles from them', () => {
    expect(cacheMisses(counts.events)).toEqual({ firstLevel: 12, lastLevel: 3 });
    // 150 instructions + 10 × 12 + 100 × 3.
    expect(estimatedCycles(counts.events)).toBe(570);
    expect(cacheMisses({ Ir: 10 })).toEqual({ firstLevel: 0, lastLevel: 0 });
  });
});
