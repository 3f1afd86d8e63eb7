import type { ApiFields, CanonicalRequest, ProtocolName } from '../canonical/index.js';
import { checkCapabilities } from './check-capabilities.js';
import { omitHostedTools } from './omit-hosted-tools.js';
import { resolveModel, type ModelTable, type ResolvedModel, type UnavailableModels } from './resolve-model.js';

/** A request bound to the model that will serve it, checked against what that model can carry. */
export interface Route {
  readonly model: ResolvedModel;
  /** The request as the caller meant it (its own model id), less any hosted tools the model omits. */
  readonly request: CanonicalRequest;
  /** The caller's protocol: when the provider speaks it too, its stream may be passed through. */
  readonly inbound: ProtocolName;
}

/** What the route needs to know of the caller's protocol. */
export interface InboundProtocol {
  readonly protocol: ProtocolName;
  /** Top-level fields that are hints only (`InboundCodec.hintFields`). */
  readonly hintFields: ReadonlySet<string>;
  /** Every top-level field the protocol defines (`InboundCodec.fields`). */
  readonly fields: ApiFields;
}

/**
 * Finds the model a request names and checks the request against it: 404 for an unknown id (with
 * the reason for one in `unavailable`), 400 `UNSUPPORTED_FEATURE` for a part the model cannot
 * carry, 400 `UNKNOWN_FIELD` for a field the caller's protocol does not have. Nothing is called yet.
 */
export function resolveRoute(models: ModelTable, decoded: CanonicalRequest, inbound: InboundProtocol, unavailable?: UnavailableModels): Route {
  const model = resolveModel(models, decoded.model, unavailable);
  const request = model.omitHostedTools ? omitHostedTools(decoded, model.capabilities) : decoded;
  checkCapabilities({
    request,
    inbound: inbound.protocol,
    upstream: model.adapter.protocol,
    hintFields: inbound.hintFields,
    fields: inbound.fields,
    modelId: model.id,
    capabilities: model.capabilities,
  });
  return { model, request, inbound: inbound.protocol };
}
