import { describe, expect, it } from 'vitest';
import type { ResolvedDeployment } from '../../src/routing/deployment.js';
import { DeploymentLoad, pickDeployment } from '../../src/routing/pick-deployment.js';
import { createMockProvider } from '../../src/providers/mock/index.js';

const adapter = createMockProvider();
const deployment = (name: string, weight = 1): ResolvedDeployment => ({ name, providerId: name, adapter, upstreamModel: 'm', weight });
const [a, b, c] = [deployment('a', 3), deployment('b', 1), deployment('c', 0.5)];

/** A random source that returns `values` in turn. */
const sequence = (...values: number[]) => {
  let index = 0;
  return () => values[index++ % values.length]!;
};

describe('pickDeployment', () => {
  describe('weighted', () => {
    it('should share picks in proportion to the weights', () => {
      const counts = new Map<string, number>();
      let seed = 1;
      // A fixed pseudo-random sequence, so the test cannot flake.
      const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
      for (let index = 0; index < 9_000; index++) {
        const picked = pickDeployment([a, b, c], 'weighted', new DeploymentLoad(), random).name;
        counts.set(picked, (counts.get(picked) ?? 0) + 1);
      }
      expect(counts.get('a')! / 9_000).toBeCloseTo(3 / 4.5, 1);
      expect(counts.get('b')! / 9_000).toBeCloseTo(1 / 4.5, 1);
      expect(counts.get('c')! / 9_000).toBeCloseTo(0.5 / 4.5, 1);
    });

    it('should map the random point onto the weights in order', () => {
      expect(pickDeployment([a, b], 'weighted', new DeploymentLoad(), () => 0.74).name).toBe('a');
      expect(pickDeployment([a, b], 'weighted', new DeploymentLoad(), () => 0.76).name).toBe('b');
    });
  });

  describe('least-busy', () => {
    it('should pick the deployment with the fewest requests in flight', () => {
      const load = new DeploymentLoad();
      load.started('a');
      load.started('a');
      load.started('b');
      expect(pickDeployment([a, b, c], 'least-busy', load).name).toBe('c');
      load.started('c');
      load.started('c');
      load.ended('a');
      load.ended('a');
      expect(pickDeployment([a, b, c], 'least-busy', load).name).toBe('a');
    });
  });

  describe('lowest-latency', () => {
    it('should try an unmeasured deployment first, then the lowest moving average', () => {
      const load = new DeploymentLoad();
      load.observed('a', 300);
      load.observed('b', 100);
      expect(pickDeployment([a, b, c], 'lowest-latency', load, sequence(0.5)).name).toBe('c');
      load.observed('c', 200);
      expect(pickDeployment([a, b, c], 'lowest-latency', load, sequence(0.5)).name).toBe('b');
      // b turns slow: its average moves towards the new latency, past c's.
      load.observed('b', 500);
      load.observed('b', 500);
      expect(load.latencyMs('b')).toBeGreaterThan(200);
      expect(pickDeployment([a, b, c], 'lowest-latency', load, sequence(0.5)).name).toBe('c');
    });

    it('should sometimes pick by weight, so a slow deployment is measured again', () => {
      const load = new DeploymentLoad();
      load.observed('a', 900);
      load.observed('b', 100);
      expect(pickDeployment([a, b], 'lowest-latency', load, sequence(0.01, 0.1)).name).toBe('a');
    });
  });
});
