import type { Caller } from '../canonical/index.js';
import { compileRequestPolicy, mergeRequestPolicies, type CompiledRequestPolicy } from './compiled-request-policy.js';
import { defaultRequestPolicy } from './default-request-policy.js';
import type { RequestPolicy, RequestPolicyOptions } from './request-policy.js';

/** The name the keys given in `apiKeys` share in `keys` (as in `limits.keys`). */
export const OPTIONS_KEY = 'options';

/** Every policy a request may meet, merged ahead of time: the path only looks one up. */
export interface RequestPolicyTable {
  /** Built-in ← gateway. */
  readonly gateway: CompiledRequestPolicy;
  /** Built-in ← gateway ← model, by model id (models with a policy of their own). */
  readonly models: ReadonlyMap<string, CompiledRequestPolicy>;
  /** Key overrides, by public id or name; undefined when there are none. */
  readonly keys: ReadonlyMap<string, RequestPolicy> | undefined;
  /** The layers below a key, kept to merge a key's override on first use. */
  readonly layers: { readonly gateway: RequestPolicy; readonly models: ReadonlyMap<string, RequestPolicy> };
  /** Key override → model id → compiled policy, filled as callers come (bounded by keys × models). */
  readonly byKey: Map<RequestPolicy, Map<string, CompiledRequestPolicy>>;
}

/** Resolves `requestPolicy` and the models' own once, when the gateway is built. */
export function resolveRequestPolicyTable(
  options: RequestPolicyOptions | undefined,
  models: readonly { readonly id: string; readonly requestPolicy?: RequestPolicy | undefined }[],
): RequestPolicyTable {
  const { keys, ...own } = options ?? {};
  const gateway = mergeRequestPolicies([defaultRequestPolicy, own]);
  const modelLayers = new Map<string, RequestPolicy>();
  const compiled = new Map<string, CompiledRequestPolicy>();
  for (const model of models) {
    if (model.requestPolicy === undefined) continue;
    const merged = mergeRequestPolicies([gateway, model.requestPolicy]);
    modelLayers.set(model.id, merged);
    compiled.set(model.id, compileRequestPolicy(merged));
  }
  const keyEntries = Object.entries(keys ?? {});
  return {
    gateway: compileRequestPolicy(gateway),
    models: compiled,
    keys: keyEntries.length === 0 ? undefined : new Map(keyEntries),
    layers: { gateway, models: modelLayers },
    byKey: new Map(),
  };
}

/**
 * The policy for this caller on this model: the key's override (by public id, else name; `options`
 * for the keys from `apiKeys`) over the model's over the gateway's, field by field.
 */
export function policyFor(table: RequestPolicyTable, caller: Caller, modelId: string): CompiledRequestPolicy {
  const override = table.keys === undefined ? undefined : keyOverride(table.keys, caller);
  if (override === undefined) return table.models.get(modelId) ?? table.gateway;
  let perModel = table.byKey.get(override);
  if (perModel === undefined) table.byKey.set(override, (perModel = new Map()));
  let policy = perModel.get(modelId);
  if (policy === undefined) {
    const below = table.layers.models.get(modelId) ?? table.layers.gateway;
    policy = compileRequestPolicy(mergeRequestPolicies([below, override]));
    perModel.set(modelId, policy);
  }
  return policy;
}

function keyOverride(keys: ReadonlyMap<string, RequestPolicy>, caller: Caller): RequestPolicy | undefined {
  const byId = keys.get(caller.keyId ?? OPTIONS_KEY);
  if (byId !== undefined) return byId;
  return caller.keyName === undefined ? undefined : keys.get(caller.keyName);
}
