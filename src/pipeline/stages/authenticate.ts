import type { Caller } from '../../canonical/index.js';
import type { KeyCheck } from '../../access/authenticate-stage.js';
import type { RequestContext } from '../request-context.js';
import type { PipelineStage } from '../run-stages.js';

/** "authenticate": who is calling, from the request's headers, or a 401 (keys, tokens, stored keys). */
export function authenticateStage(checkKey: KeyCheck, acceptXApiKey: boolean): PipelineStage {
  return {
    name: 'authenticate',
    before(context) {
      const found = checkKey(context.headers, acceptXApiKey);
      if (!(found instanceof Promise)) return authenticated(context, found);
      return found.then((caller) => authenticated(context, caller));
    },
  };
}

function authenticated(context: RequestContext, caller: Caller): undefined {
  context.caller = caller;
  context.authenticated = true;
  return undefined;
}
