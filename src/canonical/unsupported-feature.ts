import { GatewayError } from './errors.js';

export interface UnsupportedFeatureDetail {
  /** The request field at fault, as the caller's protocol names it. */
  param?: string;
  /** Why, when the feature is missing from the upstream's protocol rather than from the model. */
  reason?: string;
}

/**
 * The 400 `UNSUPPORTED_FEATURE` for a request part the chosen model cannot carry. It names the
 * feature and the model, so nothing is dropped without the caller knowing.
 *
 * @example
 * throw unsupportedFeatureError('image input', 'gpt-3.5', { param: 'messages' });
 */
export function unsupportedFeatureError(feature: string, model: string, detail: UnsupportedFeatureDetail = {}): GatewayError {
  const reason = detail.reason === undefined ? '' : `: ${detail.reason}`;
  return new GatewayError({
    code: 'UNSUPPORTED_FEATURE',
    ...(detail.param === undefined ? {} : { param: detail.param }),
    message: `The model '${model}' does not support ${feature}${reason}. Remove it from the request or choose another model.`,
  });
}
