import type { PolicyAction, RequestPolicy } from './request-policy.js';

/** One of a policy's name → action records, ready to look names up in. */
export interface ActionTable {
  readonly exact: ReadonlyMap<string, PolicyAction>;
  /** `prefix*` entries, longest prefix first. */
  readonly prefixes: readonly (readonly [prefix: string, action: PolicyAction])[];
  /** The `'*'` entry: names nothing else matches. */
  readonly other: PolicyAction;
  /** True when every name is allowed: nothing to look up. */
  readonly allowsAll: boolean;
}

/** A merged policy in the form the request path reads. */
export interface CompiledRequestPolicy {
  readonly fields: ActionTable;
  readonly tools: ActionTable;
  readonly anthropicBetas: ActionTable;
  /** Largest Chat `n`; undefined: no cap. */
  readonly maxChoices: number | undefined;
  /** Largest output tokens; undefined: no cap. */
  readonly maxOutputTokens: number | undefined;
}

function compileTable(record: Readonly<Record<string, PolicyAction>> | undefined): ActionTable {
  const exact = new Map<string, PolicyAction>();
  const prefixes: [string, PolicyAction][] = [];
  let other: PolicyAction = 'allow';
  for (const [name, action] of Object.entries(record ?? {})) {
    if (name === '*') other = action;
    else if (name.endsWith('*')) prefixes.push([name.slice(0, -1), action]);
    else exact.set(name, action);
  }
  prefixes.sort((a, b) => b[0].length - a[0].length);
  const allowsAll = other === 'allow' && [...exact.values(), ...prefixes.map(([, action]) => action)].every((action) => action === 'allow');
  return { exact, prefixes, other, allowsAll };
}

/** What the table says of `name`: its exact entry, else its longest matching prefix, else `'*'`. */
export function actionOf(table: ActionTable, name: string): PolicyAction {
  const exact = table.exact.get(name);
  if (exact !== undefined) return exact;
  for (const [prefix, action] of table.prefixes) if (name.startsWith(prefix)) return action;
  return table.other;
}

/** `layers` merged, later ones winning field by field (and name by name in the records). */
export function mergeRequestPolicies(layers: readonly (RequestPolicy | undefined)[]): RequestPolicy {
  const merged: RequestPolicy = {};
  for (const layer of layers) {
    if (layer === undefined) continue;
    if (layer.fields !== undefined) merged.fields = { ...merged.fields, ...layer.fields };
    if (layer.tools !== undefined) merged.tools = { ...merged.tools, ...layer.tools };
    if (layer.anthropicBetas !== undefined) merged.anthropicBetas = { ...merged.anthropicBetas, ...layer.anthropicBetas };
    if (layer.maxChoices !== undefined) merged.maxChoices = layer.maxChoices;
    if (layer.maxOutputTokens !== undefined) merged.maxOutputTokens = layer.maxOutputTokens;
  }
  return merged;
}

/** A merged policy → its compiled form (done once per key and model, never per request). */
export function compileRequestPolicy(policy: RequestPolicy): CompiledRequestPolicy {
  return {
    fields: compileTable(policy.fields),
    tools: compileTable(policy.tools),
    anthropicBetas: compileTable(policy.anthropicBetas),
    maxChoices: policy.maxChoices,
    maxOutputTokens: policy.maxOutputTokens,
  };
}
