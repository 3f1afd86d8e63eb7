import type { ApiFields, CanonicalRequest, ProtocolName } from '../canonical/index.js';
import { checkCapabilities } from './check-capabilities.js';
import { adaptToModel } from './adapt-to-model.js';
import { resolveModel, type ModelTable, type ResolvedModel, type UnavailableModels } from './resolve-model.js';

/** A request bound to the model that will serve it, checked against what that model can carry. */
export interface Route {
  readonly model: ResolvedModel;
  /** The request as the caller meant it (its own model id), less the hints the model cannot take (see `adaptations`). */
  readonly request: CanonicalRequest;
  /** What was left out of the request on the way, e.g. `['reasoning', 'tools.web_search']` (`adaptToModel`). */
  readonly adaptations: readonly string[];
  /** The caller's protocol: when the provider speaks it too, its stream may be passed through. */
  readonly inbound: ProtocolName;
  /** False when every event must be decoded (a stage watches the stream): the provider's answer is then never passed through. */
  readonly relay?: false;
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
 * Finds the model a request names, leaves out what the request only hints at but the model cannot do
 * (the "adapt" policy, `adaptToModel`), and checks the rest against the model: 404 for an unknown id
 * (with the reason for one in `unavailable`), 400 `UNSUPPORTED_FEATURE` for a part the model cannot
 * carry, 400 `UNKNOWN_FIELD` for a field the caller's protocol does not have. Nothing is called yet.
 */
export function resolveRoute(
  models: ModelTable,
  decoded: CanonicalRequest,
  inbound: InboundProtocol,
  unavailable?: UnavailableModels,
): Route {
  const model = resolveModel(models, decoded.model, unavailable);
  const { request, adaptations } = adaptToModel(decoded, model, inbound.protocol);
  checkCapabilities({
    request,
    inbound: inbound.protocol,
    upstream: model.adapter.protocol,
    hintFields: inbound.hintFields,
    fields: inbound.fields,
    modelId: model.id,
    capabilities: model.capabilities,
  });
  return { model, request, inbound: inbound.protocol, adaptations };
}
