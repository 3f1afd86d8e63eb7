import { GatewayError } from '../../canonical/index.js';

/**
 * The 400 for a canonical feature the OpenAI Responses API cannot carry: it names the feature and
 * the model, so nothing is dropped without the caller knowing.
 */
export function createResponsesUnsupportedError(feature: string, model: string, param?: string): GatewayError {
  return new GatewayError({
    kind: 'invalid_request',
    code: 'UNSUPPORTED_FEATURE',
    ...(param === undefined ? {} : { param }),
    message: `The model '${model}' does not support ${feature}: the OpenAI Responses API has no equivalent. Remove it from the request or choose another model.`,
  });
}
