import { GatewayError, type ProtocolName } from '../canonical/index.js';
import { carriesApiKey } from './api-request.js';
import type { HttpRequest } from './types.js';

/** Endpoint paths a client reaches when its base URL lacks `/v1`. */
const endpointsWithoutV1 = new Set(['/chat/completions', '/responses', '/messages', '/messages/count_tokens', '/responses/input_tokens']);

/** The model list's paths without `/v1` (`client.models.list()` with the API root as the OpenAI base URL). */
const isModelsPathWithoutV1 = (path: string) => path === '/models' || (path.startsWith('/models/') && path.length > '/models/'.length);

/** Only requests that look like an LLM API call are diagnosed, so a host app's own `/messages` or `/models` route still works. */
function looksLikeApiCall(req: HttpRequest, path: string): boolean {
  if (endpointsWithoutV1.has(path)) {
    return (
      req.method === 'POST' &&
      (req.headers.authorization !== undefined || req.headers['x-api-key'] !== undefined || req.headers['anthropic-version'] !== undefined)
    );
  }
  return (req.method === 'GET' || req.method === 'HEAD') && isModelsPathWithoutV1(path) && carriesApiKey(req);
}

/**
 * The diagnosis's status in the protocol it is answered in. OpenAI clients show a 404's message
 * (the SDKs' NotFoundError carries it). Claude Code does not: a 404 on `/v1/messages` is "There's
 * an issue with the selected model … It may not exist", the model's fault, while a 400
 * `invalid_request_error` is printed as `API Error: 400 {…our message…}`. So in Anthropic's shape
 * the diagnosis is a 400.
 */
function diagnosis(protocol: ProtocolName, code: 'DOUBLE_V1_PATH' | 'MISSING_V1_PATH', message: string): GatewayError {
  return protocol === 'messages'
    ? new GatewayError({ kind: 'invalid_request', status: 400, code, message })
    : new GatewayError({ code, message });
}

/**
 * An error that explains a wrong base URL, or undefined when the path is simply not the gateway's:
 * a 404, or a 400 when answered in `protocol` `messages` (see `diagnosis`). `path` is the request
 * path without its query; `apiRoot` is where the gateway is mounted, e.g. `http://localhost:8787`
 * or `http://host/llm`.
 */
export function diagnoseBaseUrl(req: HttpRequest, path: string, apiRoot: string, protocol: ProtocolName): GatewayError | undefined {
  const rules = `Anthropic clients (and ANTHROPIC_BASE_URL) take ${apiRoot}; OpenAI clients take ${apiRoot}/v1.`;
  if (path.includes('/v1/v1/')) {
    return diagnosis(
      protocol,
      'DOUBLE_V1_PATH',
      `The path ${path} repeats /v1: the base URL ends in /v1 and the client adds /v1 again. ${rules}`,
    );
  }
  if (looksLikeApiCall(req, path)) {
    // The model list's is a 404 in every shape: a 404 there is what tells a client (and `switchyard check`) to try another base URL.
    return diagnosis(
      isModelsPathWithoutV1(path) ? 'chat' : protocol,
      'MISSING_V1_PATH',
      `The path ${path} has no /v1: the base URL lacks /v1 for a client that does not add it. ${rules}`,
    );
  }
  return undefined;
}
