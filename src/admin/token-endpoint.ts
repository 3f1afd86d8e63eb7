import type { KeyCheck } from '../access/authenticate-stage.js';
import type { TokenRequest, TokenService } from '../access/token-service.js';
import { GatewayError } from '../canonical/index.js';
import { createJsonBodyReader } from '../http/read-json-body.js';
import { createRequestId } from '../http/request-id.js';
import { sendError, toGatewayError } from '../http/send-error.js';
import { sendJson } from '../http/send-json.js';
import type { EndpointHandler } from '../http/types.js';
import type { Logger } from '../logger.js';
import type { InboundCodec } from '../protocols/codec.js';

const invalid = (message: string, param: string) => new GatewayError({ code: 'TOKEN_REQUEST_INVALID', message, param });

function readTokenRequest(body: unknown): TokenRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid('The body must be a JSON object, e.g. { "expires_in": 600 }.', 'body');
  const { expires_in: expiresIn, models, max_spend_usd: maxSpendUsd } = body as Record<string, unknown>;
  if (expiresIn !== undefined && typeof expiresIn !== 'number') throw invalid("'expires_in' is a number of seconds.", 'expires_in');
  if (models !== undefined && (!Array.isArray(models) || !models.every((model) => typeof model === 'string')))
    throw invalid("'models' is an array of model ids.", 'models');
  if (maxSpendUsd !== undefined && typeof maxSpendUsd !== 'number')
    throw invalid("'max_spend_usd' is an amount in US dollars.", 'max_spend_usd');
  return {
    ...(expiresIn === undefined ? {} : { expiresIn }),
    ...(models === undefined ? {} : { models: models as string[] }),
    ...(maxSpendUsd === undefined ? {} : { maxSpendUsd }),
  };
}

/**
 * `POST /v1/tokens`: a server holding a stored key mints a short-lived token for a browser
 * (`{ expires_in?, models?, max_spend_usd? }` → `201 { token, expires_at, parent, models, max_spend_usd }`).
 */
export function createTokenEndpoint(authenticate: KeyCheck, tokens: TokenService, logger: Logger, errors: InboundCodec): EndpointHandler {
  const readBody = createJsonBodyReader(16 * 1024);
  return async (req, res) => {
    const requestId = createRequestId();
    try {
      const caller = await authenticate(req.headers, false);
      const minted = await tokens.mint(caller, readTokenRequest(await readBody(req)));
      sendJson(
        res,
        201,
        {
          object: 'browser_token',
          token: minted.token,
          expires_at: minted.expiresAt,
          parent: minted.parent,
          models: minted.models,
          max_spend_usd: minted.maxSpendUsd,
        },
        requestId,
        { 'Cache-Control': 'no-store' },
      );
    } catch (error) {
      sendError(res, errors, toGatewayError(error, logger, requestId), requestId);
    }
  };
}
