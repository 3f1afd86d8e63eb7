import type { Logger } from '../../logger.js';
import type { InboundCodec } from '../../protocols/codec.js';
import { adaptToModel } from '../../routing/adapt-to-model.js';
import { checkCapabilities } from '../../routing/check-capabilities.js';
import type { ResolvedModel } from '../../routing/resolve-model.js';
import type { PipelineStage } from '../run-stages.js';
import { noteAdaptations } from './adaptations.js';
import { fitToWindow } from './fit-to-window.js';

/**
 * "fit": the request made to fit its model, in one place — the adapt policy leaves out the hints
 * the model cannot take, the capability check refuses (400) any other part it cannot carry, and the
 * context window refuses input that cannot fit and says how much output remains. `window` is off
 * where nothing is generated (count_tokens). It runs before the request policy, which then polices
 * what will really be sent: a hint the model cannot take is left out, not refused by a policy.
 */
export function fitStage(model: ResolvedModel, codec: InboundCodec, _logger: Logger, window: boolean): PipelineStage {
  const inbound = codec.protocol;
  const checkWindow = window && (model.contextWindow !== undefined || model.maxOutputTokens !== undefined);
  return {
    name: 'fit',
    before(context) {
      const { request, adaptations } = adaptToModel(context.request, model, inbound);
      checkCapabilities({
        request,
        inbound,
        upstream: model.adapter.protocol,
        hintFields: codec.hintFields,
        fields: codec.fields,
        modelId: model.id,
        capabilities: model.capabilities,
      });
      context.request = request;
      noteAdaptations(context, adaptations);
      if (!checkWindow) return undefined;
      const fitted = fitToWindow(request, model, inbound);
      if (!(fitted instanceof Promise)) {
        context.outputTokenLimit = fitted;
        return undefined;
      }
      return fitted.then((limit) => {
        context.outputTokenLimit = limit;
      });
    },
  };
}
