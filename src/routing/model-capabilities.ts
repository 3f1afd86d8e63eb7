import type { CatalogCapabilities } from '../catalog/index.js';
import { allCapabilities } from '../providers/all-capabilities.js';
import type { ModelCapabilities } from '../providers/types.js';

const flags = ['streaming', 'tools', 'images', 'files', 'audio', 'reasoning', 'structuredOutput'] as const;

/**
 * What a model accepts. The configuration wins; otherwise a capability is on unless the catalog
 * (what the model can do) or the adapter (what its route can carry, and what the model's id says)
 * says no; neither saying anything means yes. A model the catalog says runs no hosted tools gets
 * none, whatever its adapter's protocol.
 */
export function modelCapabilities(
  fromAdapter: Partial<ModelCapabilities> | undefined,
  fromCatalog: CatalogCapabilities | undefined,
  fromConfig: Partial<ModelCapabilities> | undefined,
): ModelCapabilities {
  const capabilities: ModelCapabilities = { ...allCapabilities, ...fromAdapter };
  for (const flag of flags) {
    if (fromCatalog?.[flag] === false) capabilities[flag] = false;
  }
  if (fromCatalog?.hostedTools === false) capabilities.providerTools = [];
  return { ...capabilities, ...fromConfig };
}
