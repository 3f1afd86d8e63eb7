import type { ProviderAdapter } from '../providers/types.js';

/** One place a model is served from: a configured provider (its key and base URL) and the model id there. */
export interface DeploymentOptions {
  /** Key of the provider in `GatewayOptions.providers`. */
  provider: string;
  /** The id sent upstream. Default: the model's `upstreamModel`, else its `id`. */
  upstreamModel?: string;
  /** How the deployment is called in logs, the ledger and cooldowns. Default: `<provider>/<upstreamModel>`. */
  name?: string;
  /** Share of the traffic under the `weighted` strategy, relative to the others. Default 1. */
  weight?: number;
}

/** @deprecated Use `DeploymentOptions`: the same type, renamed by the naming rule (docs/architecture.md#names-of-parameter-objects). */
export type DeploymentConfig = DeploymentOptions;

/** How a model picks among its deployments: at random by weight, the fewest in flight, or the lowest recent latency. */
export type DeploymentStrategy = 'weighted' | 'least-busy' | 'lowest-latency';

/** A deployment bound to its provider's adapter. */
export interface ResolvedDeployment {
  /** Unique across the gateway (cooldowns are kept by it). */
  readonly name: string;
  readonly providerId: string;
  readonly adapter: ProviderAdapter;
  readonly upstreamModel: string;
  readonly weight: number;
}
