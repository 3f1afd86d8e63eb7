import { Counter, type Registry } from 'prom-client';

export interface LabelTotalsConfig<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  registers: Registry[];
}

/**
 * A Prometheus counter whose running totals per label set are kept in a plain map and handed to
 * prom-client only when it is scraped: prom-client's own `inc` validates and hashes its labels on
 * every call, a cost each request would pay several times over.
 */
export class LabelTotals<L extends string> {
  readonly #labelNames: readonly L[];
  /** A tree of maps, one level per label, its leaves the series: no key string is built per call. */
  readonly #tree = new Map<string, unknown>();
  readonly #series: Series<L>[] = [];

  constructor(config: LabelTotalsConfig<L>) {
    this.#labelNames = config.labelNames;
    const series = this.#series;
    new Counter<L>({
      name: config.name,
      help: config.help,
      labelNames: config.labelNames,
      registers: config.registers,
      // Called on every scrape, before the counter is read.
      collect() {
        this.reset();
        for (const { labels, value } of series) this.inc(labels, value);
      },
    });
  }

  /** Adds `value` to the series of these label values (in `labelNames` order). */
  add(value: number, ...values: string[]): void {
    let level = this.#tree;
    const last = values.length - 1;
    for (let index = 0; index < last; index++) {
      const label = values[index]!;
      let next = level.get(label) as Map<string, unknown> | undefined;
      if (next === undefined) level.set(label, (next = new Map()));
      level = next;
    }
    const found = level.get(values[last]!) as Series<L> | undefined;
    if (found !== undefined) {
      found.value += value;
      return;
    }
    const labels = {} as Record<L, string>;
    this.#labelNames.forEach((name, index) => (labels[name] = values[index] ?? ''));
    const series = { labels, value };
    level.set(values[last]!, series);
    this.#series.push(series);
  }
}

interface Series<L extends string> {
  readonly labels: Record<L, string>;
  value: number;
}
