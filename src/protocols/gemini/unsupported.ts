import { GatewayError } from '../../canonical/index.js';

/** The 400 for a canonical feature Gemini cannot carry: names the feature and the model, never drops it silently. */
export function unsupportedGeminiFeature(feature: string, model: string, param?: string): GatewayError {
  return new GatewayError({
    kind: 'invalid_request',
    code: 'UNSUPPORTED_FEATURE',
    ...(param === undefined ? {} : { param }),
    message: `The model '${model}' (Google Gemini) does not support ${feature}. Remove it from the request or choose another model.`,
  });
}
