import { findClosestId, GatewayError, quoteCallerText } from '../canonical/index.js';
import type { ReasoningControl, SourcedPrice } from '../catalog/index.js';
import type { ModelCapabilities, ProviderAdapter } from '../providers/types.js';
import type { ResolvedTimeouts } from './timeouts.js';
import type { DeploymentStrategy, ResolvedDeployment } from './deployment.js';
import type { RetryOptions } from './retry-policy.js';

/** A model as the gateway serves it, after options are resolved. */
export interface ResolvedModel {
  /** The id callers use. */
  id: string;
  /** The first deployment's id sent to the provider (code that calls one deployment reads these three). */
  upstreamModel: string;
  providerId: string;
  adapter: ProviderAdapter;
  /** Every deployment, the first being the one above; a model configured with one `provider` has one. */
  deployments: readonly ResolvedDeployment[];
  strategy: DeploymentStrategy;
  /** Configured ids of the models tried, in order, when this one fails. */
  fallbacks: readonly string[];
  /** Configured id of the larger-context model tried when the request does not fit this one. */
  contextFallback?: string;
  /** The model's own retry settings (over the gateway's). */
  retries?: RetryOptions;
  capabilities: ModelCapabilities;
  /** Unix seconds, reported by `GET /v1/models`. */
  created: number;
  ownedBy: string;
  /** Leave out hosted tools the model cannot run instead of refusing the request. */
  omitHostedTools: boolean;
  /** Leave out (and name) what a request only hints at but the model cannot do, instead of refusing it. */
  adapt: boolean;
  /** Tokens the model reads and writes in one request (the catalog's, or the config's); undefined when unknown. */
  contextWindow?: number;
  /** The most output tokens the model writes in one answer; undefined when unknown. */
  maxOutputTokens?: number;
  /** What the model costs: the config's `price`, else the catalog's; undefined when unknown (never free). */
  price?: SourcedPrice;
  /** The model's name in the catalog, when the catalog knows it. */
  catalogId?: string;
  /** How the model is asked to reason, when the catalog knows. */
  reasoningControl?: ReasoningControl;
  /** Its upstream calls' timeouts, the failover window and the keep-alive interval (defaults, the gateway's, then the model's). */
  timeouts: ResolvedTimeouts;
}

export type ModelTable = ReadonlyMap<string, ResolvedModel>;

/** Model ids the gateway knows but does not serve → why, as a sentence (`GatewayOptions.unavailableModels`). */
export type UnavailableModels = ReadonlyMap<string, string>;

/**
 * Finds the model a caller named (ids and aliases are both keys of `table`); 404 otherwise, saying
 * why for an id in `unavailable` (e.g. the provider key that would serve it), else suggesting the
 * closest id.
 */
export function resolveModel(table: ModelTable, id: string, unavailable?: UnavailableModels): ResolvedModel {
  const model = table.get(id);
  if (model) return model;
  const reason = unavailable?.get(id);
  if (reason !== undefined) {
    throw new GatewayError({
      code: 'UNKNOWN_MODEL',
      param: 'model',
      message: `The model '${id}' is known to this gateway but not available. ${reason} GET /v1/models lists the models you can use.`,
    });
  }
  const suggestion = findClosestId(id, table.keys());
  const hint = suggestion === undefined ? '' : ` Did you mean '${suggestion}'?`;
  throw new GatewayError({
    code: 'UNKNOWN_MODEL',
    param: 'model',
    message: `The model '${quoteCallerText(id)}' does not exist on this gateway.${hint} GET /v1/models lists the models you can use.`,
  });
}
