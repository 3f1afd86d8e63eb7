import type { Histogram, Registry } from 'prom-client';
import { labelsOf, SeriesTree } from './series-tree.js';

export interface BucketTotalsOptions<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  /** Upper bounds, ascending (`+Inf` is added). */
  buckets: readonly number[];
  registers: Registry[];
}

interface Series<L extends string> {
  readonly labels: Record<L, string>;
  /** Observations per bucket (not cumulative); the last counts those above every bound. */
  readonly counts: number[];
  sum: number;
  count: number;
}

/**
 * A Prometheus histogram whose counts per label set are kept in plain arrays and read by the
 * registry when scraped, in the shape prom-client's own `Histogram` gives it (same lines, same
 * order): prom-client's `observe` validates and hashes its labels on every call, which each request
 * would pay twice.
 */
export class BucketTotals<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #labelNames: readonly L[];
  readonly #bounds: readonly number[];
  readonly #series = new SeriesTree<Series<L>>();
  readonly #create = (values: readonly string[]): Series<L> => ({
    labels: labelsOf(this.#labelNames, values),
    counts: new Array<number>(this.#bounds.length + 1).fill(0),
    sum: 0,
    count: 0,
  });

  constructor(config: BucketTotalsOptions<L>) {
    this.name = config.name;
    this.help = config.help;
    this.#labelNames = config.labelNames;
    this.#bounds = [...config.buckets];
    // The registry reads any metric through `get()` (and `reset()`); this one has no prom-client class.
    for (const registry of config.registers) registry.registerMetric(this as unknown as Histogram);
  }

  /** Counts `value` in the series of these label values (in `labelNames` order). */
  observe(value: number, ...values: string[]): void {
    const series = this.#series.find(values, this.#create);
    const bounds = this.#bounds;
    let bucket = 0;
    while (bucket < bounds.length && value > bounds[bucket]!) bucket++;
    series.counts[bucket]! += 1;
    series.sum += value;
    series.count += 1;
  }

  /** What the registry prints: per series, each bucket's cumulative count, `+Inf`, `_sum`, `_count`. */
  async get() {
    const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> = [];
    const bucketName = `${this.name}_bucket`;
    for (const series of this.#series.all) {
      let cumulative = 0;
      this.#bounds.forEach((bound, index) => {
        cumulative += series.counts[index]!;
        values.push({ labels: { le: bound, ...series.labels }, value: cumulative, metricName: bucketName });
      });
      values.push({ labels: { le: '+Inf', ...series.labels }, value: series.count, metricName: bucketName });
      values.push({ labels: { ...series.labels }, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...series.labels }, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.#series.clear();
  }
}
