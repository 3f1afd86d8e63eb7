import { GatewayError } from '../../canonical/index.js';

/** The 400 for a request part an Anthropic model cannot carry: names the feature and the model. */
export function unsupportedFeature(feature: string, model: string, param?: string): GatewayError {
  return new GatewayError({
    kind: 'invalid_request',
    code: 'UNSUPPORTED_FEATURE',
    param,
    message: `The model '${model}' does not support ${feature}. Remove it from the request or choose another model.`,
  });
}
