import { configError } from '../canonical/index.js';
import { configuredPrice, lookupModel, type CatalogModel, type SourcedPrice } from '../catalog/index.js';
import type { ProviderAdapter } from '../providers/types.js';
import { modelCapabilities } from './model-capabilities.js';
import type { DeploymentOptions, ResolvedDeployment } from './deployment.js';
import type { RoutedModelOptions } from './routed-model-options.js';
import type { ModelTable, ResolvedModel } from './resolve-model.js';
import { DEFAULT_TIMEOUTS, resolveTimeouts, type ResolvedTimeouts } from './timeouts.js';

export interface ModelTableAndList {
  /** Every id and alias → its model. */
  table: ModelTable;
  /** Models in configuration order, without aliases. */
  list: readonly ResolvedModel[];
}

function deploymentsOf(config: RoutedModelOptions): readonly DeploymentOptions[] {
  const { deployments, provider } = config;
  if (deployments !== undefined && provider !== undefined) {
    throw configError(
      'CONFIG_MODEL_DEPLOYMENTS',
      `Model '${config.id}' has both 'provider' and 'deployments'; give one. Example: { id: '${config.id}', deployments: [{ provider: '${provider}' }, { provider: 'other' }] }.`,
    );
  }
  if (deployments !== undefined && deployments.length > 0) return deployments;
  if (provider !== undefined) return [{ provider }];
  throw configError(
    'CONFIG_MODEL_DEPLOYMENTS',
    `Model '${config.id}' names no provider. Example: { id: '${config.id}', provider: 'openai' }, or deployments: [{ provider: 'openai' }, { provider: 'azure' }].`,
  );
}

function resolveDeployment(
  config: RoutedModelOptions,
  deployment: DeploymentOptions,
  providers: Readonly<Record<string, ProviderAdapter>>,
): ResolvedDeployment {
  const adapter = providers[deployment.provider];
  if (!adapter) {
    throw configError(
      'CONFIG_UNKNOWN_PROVIDER',
      `Model '${config.id}' names provider '${deployment.provider}', which is not configured. ` +
        `Known providers: ${Object.keys(providers).join(', ')}. Example: { id: '${config.id}', provider: 'mock' }.`,
    );
  }
  const upstreamModel = deployment.upstreamModel ?? config.upstreamModel ?? config.id;
  return {
    name: deployment.name ?? `${deployment.provider}/${upstreamModel}`,
    providerId: deployment.provider,
    adapter,
    upstreamModel,
    weight: deployment.weight ?? 1,
  };
}

/** The configured id `id` (an id or an alias) stands for, for model `from`'s `field`; CONFIG_UNKNOWN_FALLBACK_MODEL otherwise. */
function configuredIdOf(table: ModelTable, id: string, from: string, field: string): string {
  const model = table.get(id);
  if (model === undefined) {
    throw configError(
      'CONFIG_UNKNOWN_FALLBACK_MODEL',
      `Model '${from}' names '${id}' in ${field}, which is not a configured model id or alias.`,
    );
  }
  if (model.id === from) throw configError('CONFIG_UNKNOWN_FALLBACK_MODEL', `Model '${from}' names itself in ${field}.`);
  return model.id;
}

/**
 * Binds each configured model to its deployments' adapters (a model's deployments are meant to be
 * the same model: capabilities, window and price are the first deployment's), and fills what its
 * configuration leaves out — capabilities, context window, largest output, price — from the model
 * catalog (for the upstream ids of adapters that name a `modelCatalog`), then the adapter. Throws
 * `CONFIG_UNKNOWN_PROVIDER` for a provider key that is not configured, `CONFIG_MODEL_DEPLOYMENTS`
 * for a model without (or with two kinds of) deployments, `CONFIG_MODEL_ID_DUPLICATE` for an id,
 * alias or deployment name used twice, `CONFIG_UNKNOWN_FALLBACK_MODEL` for a fallback that is not configured.
 */
export function createModelTable(
  models: readonly RoutedModelOptions[],
  providers: Readonly<Record<string, ProviderAdapter>>,
  defaults: { adapt?: boolean | undefined; timeouts?: ResolvedTimeouts } = {},
): ModelTableAndList {
  const table = new Map<string, ResolvedModel>();
  const list: ResolvedModel[] = [];
  const created = Math.floor(Date.now() / 1000);
  for (const config of models) {
    const deployments = deploymentsOf(config).map((deployment) => resolveDeployment(config, deployment, providers));
    const names = new Set(deployments.map((deployment) => deployment.name));
    if (names.size !== deployments.length) {
      throw configError(
        'CONFIG_MODEL_ID_DUPLICATE',
        `Model '${config.id}' has two deployments of the same name; give each a distinct 'name' (or upstreamModel).`,
      );
    }
    const first = deployments[0]!;
    const { adapter, upstreamModel } = first;
    const known = adapter.modelCatalog === undefined ? undefined : lookupModel(adapter.modelCatalog, upstreamModel);
    const contextWindow = config.contextWindow ?? known?.contextWindow;
    const maxOutputTokens = config.maxOutputTokens ?? known?.maxOutputTokens;
    const price: SourcedPrice | undefined = config.price === undefined ? known?.price : configuredPrice(config.price);
    const model: ResolvedModel = {
      id: config.id,
      upstreamModel,
      providerId: first.providerId,
      adapter,
      deployments,
      strategy: config.strategy ?? 'weighted',
      fallbacks: config.fallbacks ?? [],
      ...(config.contextFallback === undefined ? {} : { contextFallback: config.contextFallback }),
      ...(config.retries === undefined ? {} : { retries: config.retries }),
      capabilities: modelCapabilities(adapter.capabilities?.(upstreamModel), known?.capabilities, config.capabilities),
      created,
      ownedBy: config.ownedBy ?? first.providerId,
      omitHostedTools: config.hostedTools === 'omit',
      adapt: config.adapt ?? defaults.adapt ?? true,
      timeouts: resolveTimeouts(defaults.timeouts ?? DEFAULT_TIMEOUTS, config.timeouts),
      ...(contextWindow === undefined ? {} : { contextWindow }),
      ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      ...(price === undefined ? {} : { price }),
      ...catalogFields(known),
    };
    for (const id of [config.id, ...(config.aliases ?? [])]) {
      if (table.has(id)) {
        throw configError('CONFIG_MODEL_ID_DUPLICATE', `The model id or alias '${id}' is configured twice; each id must be unique.`);
      }
      table.set(id, model);
    }
    list.push(model);
  }
  // Fallbacks may name models configured after them: resolved once every id is known.
  for (const model of list) {
    model.fallbacks = model.fallbacks.map((id) => configuredIdOf(table, id, model.id, 'fallbacks'));
    if (model.contextFallback !== undefined)
      model.contextFallback = configuredIdOf(table, model.contextFallback, model.id, 'contextFallback');
  }
  return { table, list };
}

function catalogFields(known: CatalogModel | undefined): Pick<ResolvedModel, 'catalogId' | 'reasoningControl'> {
  if (known === undefined) return {};
  return { catalogId: known.id, ...(known.reasoningControl === undefined ? {} : { reasoningControl: known.reasoningControl }) };
}
