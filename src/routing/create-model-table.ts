import { configError } from '../canonical/index.js';
import { allCapabilities } from '../providers/all-capabilities.js';
import type { ProviderAdapter } from '../providers/types.js';
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
 * Binds each configured model to its provider's adapter and capabilities. Throws
 * `CONFIG_UNKNOWN_PROVIDER` for a provider key that is not configured and
 * `CONFIG_MODEL_ID_DUPLICATE` for an id or alias used twice.
 */
export function createModelTable(
  models: readonly ModelConfig[],
  providers: Readonly<Record<string, ProviderAdapter>>,
  timeouts: ResolvedTimeouts = DEFAULT_TIMEOUTS,
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
    const model: ResolvedModel = {
      id: config.id,
      upstreamModel,
      providerId: config.provider,
      adapter,
      capabilities: { ...allCapabilities, ...adapter.capabilities?.(upstreamModel), ...config.capabilities },
      created,
      ownedBy: config.ownedBy ?? config.provider,
      omitHostedTools: config.hostedTools === 'omit',
      timeouts: resolveTimeouts(timeouts, config.timeouts),
      ...(config.contextWindow === undefined ? {} : { contextWindow: config.contextWindow }),
      ...(config.maxOutputTokens === undefined ? {} : { maxOutputTokens: config.maxOutputTokens }),
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
