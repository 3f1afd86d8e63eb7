// Reads one callgrind dump (format: https://valgrind.org/docs/manual/cl-format.html): the
// instructions it counted, and how many of them ran inside the functions each group names (with
// everything those called), so V8's JIT compiler and old-generation GC can be set apart from the
// request's own work.

export interface CallgrindCounts<Group extends string> {
  /** Instructions executed in the dump's window (the `Ir` event, all threads). */
  instructions: number;
  /** Of those, the ones executed inside a function of each group, callees included. */
  inside: Record<Group, number>;
  /**
   * Every event the dump counted, by its name in the `events:` line (`Ir` alone by default; with
   * `--cache-sim=yes` also `I1mr`, `D1mr`, `D1mw`, `ILmr`, `DLmr`, `DLmw`: misses of the first and
   * the last level), in the window and inside each group.
   */
  events: Record<string, number>;
  insideEvents: Record<Group, Record<string, number>>;
}

/** `fn=(12) name` defines id 12; later `fn=(12)` refers to it. Ids are shared by `fn` and `cfn`. */
const compressedName = /^\((\d+)\)(?: (.*))?$/;
/** Callgrind marks the second and deeper levels of a recursion with `'2`, `'3`…. */
const recursionLevel = /'\d+$/;

/**
 * A group's inclusive cost is summed over the calls into it from outside it, so a group's functions
 * must not reach one another through functions outside it (that would count the inner one twice):
 * name the entry points only.
 */
export function readCallgrindCounts<Group extends string>(dump: string, groups: Record<Group, RegExp>): CallgrindCounts<Group> {
  const names = new Map<string, string>();
  const nameOf = (field: string): string => {
    const match = compressedName.exec(field);
    if (match === null) return field;
    const [, id = '', name] = match;
    if (name !== undefined) names.set(id, name);
    return names.get(id) ?? field;
  };
  const entries = Object.entries(groups) as [Group, RegExp][];
  let eventNames = ['Ir'];
  const events: Record<string, number> = { Ir: 0 };
  const insideEvents = Object.fromEntries(entries.map(([group]) => [group, { Ir: 0 } as Record<string, number>])) as Record<
    Group,
    Record<string, number>
  >;
  const add = (into: Record<string, number>, values: string[]) => {
    // A cost line may leave out trailing events that are 0.
    for (let index = 0; index < values.length && index < eventNames.length; index += 1)
      into[eventNames[index]!] = (into[eventNames[index]!] ?? 0) + Number(values[index]);
  };
  const groupOf = (name: string) => entries.find(([, functions]) => functions.test(name.replace(recursionLevel, '')))?.[0];
  let caller = '';
  let callee = '';
  let nextCostIsCall = false;
  for (const line of dump.split('\n')) {
    if (line.startsWith('events:')) {
      eventNames = line.slice('events:'.length).trim().split(/\s+/);
      for (const name of eventNames) {
        events[name] = 0;
        for (const [group] of entries) {
          const into: Record<string, number> = insideEvents[group];
          into[name] = 0;
        }
      }
    } else if (line.startsWith('fn=')) caller = nameOf(line.slice(3));
    else if (line.startsWith('cfn=')) callee = nameOf(line.slice(4));
    else if (line.startsWith('calls=')) nextCostIsCall = true;
    else if (/^[0-9+\-*]/.test(line)) {
      // A cost line: a position, then the events in the order of the `events:` line.
      const values = line.split(' ').slice(1);
      if (!nextCostIsCall) add(events, values);
      else {
        // The line after `calls=` is that call's inclusive cost (already in the callee's own lines),
        // counted for a group when the call enters it from outside (not once more per nested call).
        const group = groupOf(callee);
        if (group !== undefined && groupOf(caller) !== group) add(insideEvents[group], values);
      }
      nextCostIsCall = false;
    }
  }
  const inside = Object.fromEntries(entries.map(([group]) => [group, insideEvents[group].Ir ?? 0])) as Record<Group, number>;
  return { instructions: events.Ir ?? 0, inside, events, insideEvents };
}

/**
 * V8's compilers as the main thread enters them (with `--single-threaded` all compilation runs
 * there): lazy bytecode compilation, Sparkplug, TurboFan (also on-stack replacement), and the
 * budget interrupts that decide and start tier-ups. What a request costs once warm is the rest.
 */
export const jitCompilation = /^v8::internal::Runtime_(Compile|InstallBaselineCode|InstallSFICode|BytecodeBudgetInterrupt)/;

/**
 * V8's old-generation collection as it is entered: an incremental-marking task from the event loop,
 * a marking step taken on allocation, the start of a marking cycle. The mark-compact that ends a
 * cycle runs inside one of them. A cycle comes every few thousand requests, so a window of a few
 * hundred holds a whole one or none. Scavenges (the young generation, what allocation costs every
 * few dozen requests) are not in it.
 */
export const oldGenerationGc =
  /^v8::internal::(IncrementalMarkingJob::Task::RunInternal|IncrementalMarking::Observer::Step|Heap::StartIncrementalMarking)\(/;

/** Misses of the simulated caches in a set of counts (`--cache-sim=yes`); 0 where the dump has none. */
export function cacheMisses(events: Record<string, number>): { firstLevel: number; lastLevel: number } {
  const count = (name: string) => events[name] ?? 0;
  return {
    firstLevel: count('I1mr') + count('D1mr') + count('D1mw'),
    lastLevel: count('ILmr') + count('DLmr') + count('DLmw'),
  };
}

/**
 * KCachegrind's estimate of the cycles a set of counts took (its "Cycle Estimation", less branch
 * mispredictions, which are not simulated here): an instruction 1, a first-level miss 10 more, a
 * last-level miss 100 more. A model, not a measurement: no prefetching, no overlap of misses.
 */
export function estimatedCycles(events: Record<string, number>): number {
  const misses = cacheMisses(events);
  return (events.Ir ?? 0) + 10 * misses.firstLevel + 100 * misses.lastLevel;
}
