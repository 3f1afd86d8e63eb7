import { GatewayError, type Caller } from '../canonical/index.js';

/** Throws a 403 when the caller's key may not call `model` (its allowlist does not name it). */
export function refuseUnlistedModel(caller: Caller, model: string): void {
  if (caller.models === undefined || caller.models.includes(model)) return;
  throw new GatewayError({
    code: 'MODEL_NOT_ALLOWED',
    param: 'model',
    message: `The key ${caller.keyId ?? ''} may not call the model '${model}'. It may call: ${caller.models.join(', ') || 'no model'}.`,
  });
}
