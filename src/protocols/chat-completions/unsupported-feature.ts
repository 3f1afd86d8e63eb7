import { GatewayError } from '../../canonical/index.js';

/**
 * A canonical feature the upstream cannot carry → 400 `UNSUPPORTED_FEATURE` naming the feature
 * and the model, so nothing is dropped without the caller knowing.
 */
export function createUnsupportedFeatureError(feature: string, model: string, param?: string): GatewayError {
  return new GatewayError({
    kind: 'invalid_request',
    code: 'UNSUPPORTED_FEATURE',
    param,
    message: `The model '${model}' does not support ${feature}. Remove it from the request or choose another model.`,
  });
}
