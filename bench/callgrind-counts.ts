// Reads one callgrind dump (format: https://valgrind.org/docs/manual/cl-format.html): the
// instructions it counted, and how many of them ran inside the functions `excluded` names (with
// everything those called), so V8's JIT compiler can be set apart from the request's own work.

export interface CallgrindCounts {
  /** Instructions executed in the dump's window (the `Ir` event, all threads). */
  instructions: number;
  /** Of those, the ones executed inside a function `excluded` matches, callees included. */
  excludedInstructions: number;
}

/** `fn=(12) name` defines id 12; later `fn=(12)` refers to it. Ids are shared by `fn` and `cfn`. */
const compressedName = /^\((\d+)\)(?: (.*))?$/;
/** Callgrind marks the second and deeper levels of a recursion with `'2`, `'3`…. */
const recursionLevel = /'\d+$/;

export function readCallgrindCounts(dump: string, excluded: RegExp): CallgrindCounts {
  const names = new Map<string, string>();
  const nameOf = (field: string): string => {
    const match = compressedName.exec(field);
    if (match === null) return field;
    const [, id = '', name] = match;
    if (name !== undefined) names.set(id, name);
    return names.get(id) ?? field;
  };
  const isExcluded = (name: string) => excluded.test(name.replace(recursionLevel, ''));
  let caller = '';
  let callee = '';
  let nextCostIsCall = false;
  let instructions = 0;
  let excludedInstructions = 0;
  for (const line of dump.split('\n')) {
    if (line.startsWith('fn=')) caller = nameOf(line.slice(3));
    else if (line.startsWith('cfn=')) callee = nameOf(line.slice(4));
    else if (line.startsWith('calls=')) nextCostIsCall = true;
    else if (/^[0-9+\-*]/.test(line)) {
      // A cost line: a position, then the events (`Ir` only, the default).
      const cost = Number(line.split(' ')[1] ?? 0);
      if (!nextCostIsCall) instructions += cost;
      // The line after `calls=` is that call's inclusive cost (already in the callee's own lines).
      else if (isExcluded(callee) && !isExcluded(caller)) excludedInstructions += cost;
      nextCostIsCall = false;
    }
  }
  return { instructions, excludedInstructions };
}

/**
 * V8's compilers as the main thread enters them (with `--single-threaded` all compilation runs
 * there): lazy bytecode compilation, Sparkplug, TurboFan (also on-stack replacement), and the
 * budget interrupts that decide and start tier-ups. What a request costs once warm is the rest.
 */
export const jitCompilation = /^v8::internal::Runtime_(Compile|InstallBaselineCode|InstallSFICode|BytecodeBudgetInterrupt)/;
