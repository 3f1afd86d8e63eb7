import type { CanonicalRequest, ProtocolName } from '../canonical/index.js';
import { hostedToolFamily } from '../canonical/index.js';

/** Stripped fields named in `x-switchyard-adapted`: those that change how an answer is served. Storage and labels are not named. */
const namedFields: ReadonlySet<string> = new Set(['service_tier', 'speed']);

/**
 * What the request policy stripped from `before` to make `after`, named as the adapt policy names
 * what it leaves out (`tools.web_search`, `service_tier`), so that the caller learns of both in one
 * header. Empty when the policy changed nothing.
 * @example
 * strippedHints(request, applyRequestPolicy(policy, request, 'responses'), 'responses'); // ['tools.web_search']
 */
export function strippedHints(before: CanonicalRequest, after: CanonicalRequest, protocol: ProtocolName): string[] {
  if (after === before) return [];
  const names: string[] = [];
  if (after.tools !== before.tools) {
    const kept = new Set(after.tools ?? []);
    for (const tool of before.tools ?? []) {
      if (tool.type !== 'provider-defined' || kept.has(tool)) continue;
      const name = `tools.${hostedToolFamily(tool.kind)}`;
      if (!names.includes(name)) names.push(name);
    }
  }
  const fields = before.extensions?.[protocol];
  const left = after.extensions?.[protocol];
  for (const key in fields) {
    if (namedFields.has(key) && fields[key] != null && left?.[key] === undefined) names.push(key);
  }
  return names;
}
