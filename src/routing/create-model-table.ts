import { configError } from '../canonical/index.js';
import { configuredPrice, lookupModel, type CatalogModel, type SourcedPrice } from '../catalog/index.js';
import type { ProviderAdapter } from '../providers/types.js';
import { modelCapabilities } from './model-capabilities.js';
import type { ModelConfig } from './model-config.js';
import type { ModelTable, ResolvedModel } from './resolve-model.js';
import { DEFAULT_TIMEOUTS, resolveTimeouts, type ResolvedTimeouts } from './timeouts.js';

export interface ModelTableAndList {
  /** Every id and alias → its model. */
  table: ModelTable;
  /** Models in configuration order, without aliases. */
  list: readonly ResolvedModel[];
}

/**
 * Binds each configured model to its provider's adapter, and fills what its configuration leaves
 * out — capabilities, context window, largest output, price — from the model catalog (for the
 * upstream ids of adapters that name a `modelCatalog`), then the adapter. Throws
 * `CONFIG_UNKNOWN_PROVIDER` for a provider key that is not configured and
 * `CONFIG_MODEL_ID_DUPLICATE` for an id or alias used twice.
 */
export function createModelTable(
  models: readonly ModelConfig[],
  providers: Readonly<Record<string, ProviderAdapter>>,
  defaults: { adapt?: boolean | undefined; timeouts?: ResolvedTimeouts } = {},
): ModelTableAndList {
  const table = new Map<string, ResolvedModel>();
  const list: ResolvedModel[] = [];
  const created = Math.floor(Date.now() / 1000);
  for (const config of models) {
    const adapter = providers[config.provider];
    if (!adapter) {
      throw configError(
        'CONFIG_UNKNOWN_PROVIDER',
        `Model '${config.id}' names provider '${config.provider}', which is not configured. ` +
          `Known providers: ${Object.keys(providers).join(', ')}. Example: { id: '${config.id}', provider: 'mock' }.`,
      );
    }
    const upstreamModel = config.upstreamModel ?? config.id;
    const known = adapter.modelCatalog === undefined ? undefined : lookupModel(adapter.modelCatalog, upstreamModel);
    const contextWindow = config.contextWindow ?? known?.contextWindow;
    const maxOutputTokens = config.maxOutputTokens ?? known?.maxOutputTokens;
    const price: SourcedPrice | undefined = config.price === undefined ? known?.price : configuredPrice(config.price);
    const model: ResolvedModel = {
      id: config.id,
      upstreamModel,
      providerId: config.provider,
      adapter,
      capabilities: modelCapabilities(adapter.capabilities?.(upstreamModel), known?.capabilities, config.capabilities),
      created,
      ownedBy: config.ownedBy ?? config.provider,
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
  return { table, list };
}

function catalogFields(known: CatalogModel | undefined): Pick<ResolvedModel, 'catalogId' | 'reasoningControl'> {
  if (known === undefined) return {};
  return { catalogId: known.id, ...(known.reasoningControl === undefined ? {} : { reasoningControl: known.reasoningControl }) };
}
