import type { DeploymentStrategy, ResolvedDeployment } from './deployment.js';

/** How much a new latency moves a deployment's average (an exponentially weighted moving average). */
const LATENCY_WEIGHT = 0.3;
/** Share of `lowest-latency` picks made by weight instead, so a deployment that was slow once gets measured again. */
const EXPLORE_SHARE = 0.05;

/** What this process knows of its deployments: requests in flight and recent latency. */
export class DeploymentLoad {
  readonly #inFlight = new Map<string, number>();
  readonly #latencyMs = new Map<string, number>();

  started(name: string): void {
    this.#inFlight.set(name, (this.#inFlight.get(name) ?? 0) + 1);
  }

  ended(name: string): void {
    const left = (this.#inFlight.get(name) ?? 1) - 1;
    if (left <= 0) this.#inFlight.delete(name);
    else this.#inFlight.set(name, left);
  }

  /** A successful call's latency (a stream: until its first output). */
  observed(name: string, ms: number): void {
    const previous = this.#latencyMs.get(name);
    this.#latencyMs.set(name, previous === undefined ? ms : previous + LATENCY_WEIGHT * (ms - previous));
  }

  inFlight(name: string): number {
    return this.#inFlight.get(name) ?? 0;
  }

  /** The moving average, or undefined before the first success. */
  latencyMs(name: string): number | undefined {
    return this.#latencyMs.get(name);
  }
}

function byWeight(candidates: readonly ResolvedDeployment[], random: () => number): ResolvedDeployment {
  if (candidates.length === 1) return candidates[0]!;
  let total = 0;
  for (const candidate of candidates) total += candidate.weight;
  let point = random() * total;
  for (const candidate of candidates) {
    point -= candidate.weight;
    if (point < 0) return candidate;
  }
  return candidates[candidates.length - 1]!;
}

/** The candidates with the lowest `score`, by weight among ties. */
function lowest(
  candidates: readonly ResolvedDeployment[],
  score: (deployment: ResolvedDeployment) => number,
  random: () => number,
): ResolvedDeployment {
  let best = Number.POSITIVE_INFINITY;
  let tied: ResolvedDeployment[] = [];
  for (const candidate of candidates) {
    const value = score(candidate);
    if (value < best) {
      best = value;
      tied = [candidate];
    } else if (value === best) tied.push(candidate);
  }
  return byWeight(tied, random);
}

/**
 * One of `candidates` (never empty) by the model's strategy: `weighted` at random by weight;
 * `least-busy` the fewest requests in flight in this process; `lowest-latency` the lowest recent
 * latency, a deployment not measured yet first.
 */
export function pickDeployment(
  candidates: readonly ResolvedDeployment[],
  strategy: DeploymentStrategy,
  load: DeploymentLoad,
  random: () => number = Math.random,
): ResolvedDeployment {
  if (candidates.length === 1) return candidates[0]!;
  switch (strategy) {
    case 'least-busy':
      return lowest(candidates, (deployment) => load.inFlight(deployment.name), random);
    case 'lowest-latency':
      if (random() < EXPLORE_SHARE) return byWeight(candidates, random);
      return lowest(candidates, (deployment) => load.latencyMs(deployment.name) ?? -1, random);
    default:
      return byWeight(candidates, random);
  }
}
