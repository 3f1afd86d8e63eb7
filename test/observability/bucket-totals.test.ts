import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { BucketTotals } from '../../src/observability/bucket-totals.js';

const buckets = [0.05, 0.1, 0.5, 1, 10];

/** The same observations in a BucketTotals and in prom-client's own Histogram, each in a registry of its own. */
function both(observations: Array<[number, string, string]>) {
  const ours = new Registry();
  const theirs = new Registry();
  const totals = new BucketTotals({ name: 'd_seconds', help: 'Duration.', labelNames: ['protocol', 'model'], buckets, registers: [ours] });
  const histogram = new Histogram({
    name: 'd_seconds',
    help: 'Duration.',
    labelNames: ['protocol', 'model'],
    buckets,
    registers: [theirs],
  });
  for (const [value, protocol, model] of observations) {
    totals.observe(value, protocol, model);
    histogram.observe({ protocol, model }, value);
  }
  return { ours, theirs };
}

describe('BucketTotals', () => {
  const observations: Array<[number, string, string]> = [
    [0.01, 'chat', 'a'],
    [0.05, 'chat', 'a'], // on a bound: counted in that bucket
    [0.07, 'chat', 'a'],
    [3, 'messages', 'a'],
    [42, 'chat', 'a'], // above every bound: +Inf only
    [0.2, 'chat', 'b'],
    [0.5, 'messages', 'b'],
  ];

  it("should print what prom-client's Histogram prints for the same observations", async () => {
    const { ours, theirs } = both(observations);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.metrics()).toContain('d_seconds_bucket{le="0.1",protocol="chat",model="a"} 3');
    expect(await ours.metrics()).toContain('d_seconds_bucket{le="+Inf",protocol="chat",model="a"} 4');
  });

  it("should give the same JSON as prom-client's Histogram, and start again when the registry is reset", async () => {
    const { ours, theirs } = both(observations);
    // prom-client adds `exemplar: null` to each value (exemplars are off); everything else is the same.
    const withoutExemplars = (metrics: Awaited<ReturnType<Registry['getMetricsAsJSON']>>) =>
      metrics.map((metric) => ({
        ...metric,
        values: metric.values.map(({ labels, value, metricName }: { labels: object; value: number; metricName?: string }) => ({
          labels,
          value,
          metricName,
        })),
      }));
    expect(withoutExemplars(await ours.getMetricsAsJSON())).toEqual(withoutExemplars(await theirs.getMetricsAsJSON()));
    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.metrics()).not.toContain('d_seconds_count');
  });
});
