import type { ModelPrice } from '../canonical/index.js';
import type { ModelCapabilities } from '../providers/types.js';
import type { TimeoutOptions } from './timeouts.js';
import type { DeploymentOptions, DeploymentStrategy } from './deployment.js';
import type { RetryOptions } from './retry-policy.js';

/**
 * What routing reads of a model's configuration: the public `ModelOptions` (gateway/options.ts)
 * is this plus the model's request policy, which routing does not see.
 */
export interface RoutedModelOptions {
  /** The id callers send as `model`. */
  id: string;
  /**
   * Key of the provider in `GatewayOptions.providers` (`mock` is built in): the model's one
   * deployment. Give either `provider` or `deployments`.
   */
  provider?: string;
  /** The id sent upstream. Default: `id`. With `deployments`, the default of each deployment's `upstreamModel`. */
  upstreamModel?: string;
  /**
   * Where the model is served when it is served from more than one place (several keys, regions or
   * providers): a request goes to one, chosen by `strategy`, and moves to another when one fails.
   * @example deployments: [{ provider: 'openai-east', weight: 3 }, { provider: 'azure-west', upstreamModel: 'gpt-4o-prod' }]
   */
  deployments?: DeploymentOptions[];
  /** How a deployment is chosen: `weighted` (default), `least-busy` or `lowest-latency`. */
  strategy?: DeploymentStrategy;
  /**
   * Models tried in order when every attempt on this one failed with a retryable error (before any
   * output reached the client). Ids or aliases of configured models.
   * @example fallbacks: ['claude-sonnet-4-5', 'gpt-4.1-mini']
   */
  fallbacks?: string[];
  /** A model with a larger context window, tried when the upstream says the request does not fit this one's. */
  contextFallback?: string;
  /** This model's retries, over the gateway's `retries`. */
  retries?: RetryOptions;
  /** Other ids that reach the same model. */
  aliases?: string[];
  /** Tokens the model reads and writes in one request. Default: the catalog's figure, if it knows the model. */
  contextWindow?: number;
  /** The most output tokens the model writes in one answer. Default: the catalog's figure, if it knows the model. */
  maxOutputTokens?: number;
  /** What the model can do, over the catalog's and the provider's view (each field on its own). */
  capabilities?: Partial<ModelCapabilities>;
  /** Shown as `owned_by` in `GET /v1/models`. Default: the provider key. */
  ownedBy?: string;
  /**
   * Tools of another API the model cannot run (e.g. Responses `web_search` on an Anthropic model):
   * `refuse` leaves hosted ones out under the adapt policy and answers 400 naming any other (and,
   * with `adapt: false`, every one) — the default; `omit` serves the request without any of them.
   */
  hostedTools?: 'refuse' | 'omit';
  /**
   * Whether what a request only hints at but this model cannot do (reasoning, hosted tools such as
   * `web_search`) is left out and named in `x-switchyard-adapted`, rather than refused with a 400.
   * Default: the gateway's `adapt` (itself default `true`).
   */
  adapt?: boolean;
  /**
   * What the model costs, in USD per million tokens: the ledger prices each row with it, and key
   * budgets need it. Default: the catalog's price for the upstream model, if it has one. Without
   * a price, rows are recorded as unpriced (never as free).
   * @example price: { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75, cacheWrite1h: 6, tiers: [{ aboveInputTokens: 200000, input: 6, output: 22.5 }] }
   */
  price?: ModelPrice;
  /**
   * The model's limits across all callers (its deployment's quota at the provider): requests and
   * tokens per minute, requests at once, and how much of a minute's allowance may pass at once
   * (`burst`, default the whole of it). Refused with 429 before the provider is called.
   * @example limits: { requestsPerMinute: 500, tokensPerMinute: 200000 }
   */
  limits?: { requestsPerMinute?: number; tokensPerMinute?: number; concurrency?: number; burst?: { requests?: number; tokens?: number } };
  /**
   * This model's timeouts and stream keep-alive, over the gateway's `timeouts`, field by field.
   * @example timeouts: { firstTokenMs: 600000 } // a reasoning model that thinks for minutes
   */
  timeouts?: TimeoutOptions;
}
