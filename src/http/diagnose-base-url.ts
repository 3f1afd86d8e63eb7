import { GatewayError } from '../canonical/index.js';
import type { HttpRequest } from './types.js';

/** Endpoint paths a client reaches when its base URL lacks `/v1`. */
const endpointsWithoutV1 = new Set(['/chat/completions', '/responses', '/messages', '/messages/count_tokens']);

/** Only requests that look like an LLM API call are diagnosed, so a host app's own `/messages` route still works. */
function looksLikeApiCall(req: HttpRequest): boolean {
  return (
    req.method === 'POST' &&
    (req.headers.authorization !== undefined ||
      req.headers['x-api-key'] !== undefined ||
      req.headers['anthropic-version'] !== undefined)
  );
}

/**
 * A 404 that explains a wrong base URL, or undefined when the path is simply not the gateway's.
 * `path` is the request path without its query; `apiRoot` is where the gateway is mounted, e.g. `http://localhost:8787` or `http://host/llm`.
 */
export function diagnoseBaseUrl(req: HttpRequest, path: string, apiRoot: string): GatewayError | undefined {
  const rules = `Anthropic clients (and ANTHROPIC_BASE_URL) take ${apiRoot}; OpenAI clients take ${apiRoot}/v1.`;
  if (path.includes('/v1/v1/')) {
    return new GatewayError({
      kind: 'not_found',
      code: 'DOUBLE_V1_PATH',
      message: `The path ${path} repeats /v1: the base URL ends in /v1 and the client adds /v1 again. ${rules}`,
    });
  }
  if (endpointsWithoutV1.has(path) && looksLikeApiCall(req)) {
    return new GatewayError({
      kind: 'not_found',
      code: 'MISSING_V1_PATH',
      message: `The path ${path} has no /v1: the base URL lacks /v1 for a client that does not add it. ${rules}`,
    });
  }
  return undefined;
}
