import type { HttpRequest } from './types.js';

/**
 * Whether the request carries an API key the way OpenAI and Anthropic clients send one. A browser
 * on a page sends none, or `Basic` credentials to a proxy's password prompt, which are not one.
 */
export function carriesApiKey(req: HttpRequest): boolean {
  const { authorization } = req.headers;
  return (
    (authorization !== undefined && !/^basic\s/i.test(authorization)) ||
    req.headers['x-api-key'] !== undefined ||
    req.headers['api-key'] !== undefined
  );
}

/** Whether the request asks for JSON rather than a page: `Accept` names `application/json` and not `text/html` (a browser's navigation names both or HTML only). */
export function asksForJson(req: HttpRequest): boolean {
  const accept = String(req.headers.accept ?? '').toLowerCase();
  return accept.includes('application/json') && !accept.includes('text/html');
}

/** An API call rather than a visit to a page: it carries a key, or asks for JSON. */
export function isApiRequest(req: HttpRequest): boolean {
  return carriesApiKey(req) || asksForJson(req);
}
