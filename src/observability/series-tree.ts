/**
 * The series of a metric found by their label values, through one map per label: no key string is
 * built per lookup (joining the values cost more than the counting it served).
 */
export class SeriesTree<S> {
  readonly #root = new Map<string, unknown>();
  /** Every series, in the order they first appeared. */
  readonly all: S[] = [];

  /** The series of these label values (at least one), made by `create` the first time. */
  find(values: readonly string[], create: (values: readonly string[]) => S): S {
    let level = this.#root;
    const last = values.length - 1;
    for (let index = 0; index < last; index++) {
      const label = values[index]!;
      let next = level.get(label) as Map<string, unknown> | undefined;
      if (next === undefined) level.set(label, (next = new Map()));
      level = next;
    }
    const found = level.get(values[last]!) as S | undefined;
    if (found !== undefined) return found;
    const series = create(values);
    level.set(values[last]!, series);
    this.all.push(series);
    return series;
  }

  clear(): void {
    this.#root.clear();
    this.all.length = 0;
  }
}

/** The label object of one series: `names[i]` is `values[i]`. */
export function labelsOf<L extends string>(names: readonly L[], values: readonly string[]): Record<L, string> {
  const labels = {} as Record<L, string>;
  names.forEach((name, index) => (labels[name] = values[index] ?? ''));
  return labels;
}
