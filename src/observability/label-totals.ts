import { Counter, type Registry } from 'prom-client';
import { labelsOf, SeriesTree } from './series-tree.js';

export interface LabelTotalsOptions<L extends string> {
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
  readonly #series = new SeriesTree<Series<L>>();
  readonly #create = (values: readonly string[]): Series<L> => ({ labels: labelsOf(this.#labelNames, values), value: 0 });

  constructor(config: LabelTotalsOptions<L>) {
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
        for (const { labels, value } of series.all) this.inc(labels, value);
      },
    });
  }

  /** Adds `value` to the series of these label values (in `labelNames` order). */
  add(value: number, ...values: string[]): void {
    this.#series.find(values, this.#create).value += value;
  }
}

interface Series<L extends string> {
  readonly labels: Record<L, string>;
  value: number;
}
