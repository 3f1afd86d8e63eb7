import { configError } from '../canonical/index.js';
import type { ProviderAdapter } from './types.js';

/**
 * The versions of the `ProviderAdapter` interface this gateway speaks. When the interface changes
 * in a way an adapter must follow, a new version is added here (and the old one kept while it can
 * be served), so an adapter written for another version fails at start-up, not on a request.
 */
export const PROVIDER_SPECIFICATION_VERSIONS = ['v1'] as const;

export type ProviderSpecificationVersion = (typeof PROVIDER_SPECIFICATION_VERSIONS)[number];

/**
 * Checks an adapter as it is registered under `key`: one that declares no version is read as
 * `v1` (adapters written before the field existed); an unknown version throws
 * `CONFIG_PROVIDER_SPEC_VERSION`.
 */
export function checkSpecificationVersion(key: string, adapter: ProviderAdapter): void {
  const declared: unknown = adapter.specificationVersion;
  if (declared === undefined || (PROVIDER_SPECIFICATION_VERSIONS as readonly unknown[]).includes(declared)) return;
  throw configError(
    'CONFIG_PROVIDER_SPEC_VERSION',
    `The provider '${key}' (adapter '${adapter.id}') declares specificationVersion ${JSON.stringify(declared)}, which this gateway does not speak (it speaks ${PROVIDER_SPECIFICATION_VERSIONS.map((v) => `'${v}'`).join(', ')}). Update the adapter, or the gateway, so the versions match.`,
  );
}
