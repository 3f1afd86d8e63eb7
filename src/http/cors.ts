import type { HttpRequest, HttpResponse } from './types.js';

/** Headers a browser may read from an answer: request ids, rate-limit hints, and what the adapt policy left out. */
const EXPOSED = 'x-request-id, request-id, retry-after, retry-after-ms, x-switchyard-adapted';
const PREFLIGHT_MAX_AGE_S = '600';

/**
 * Cross-origin access for browsers holding a token: answers preflights and marks answers readable
 * by the allowed origins (`*` allows any). Returns true when it answered the request itself (a preflight).
 */
export function createCors(origins: readonly string[]): (req: HttpRequest, res: HttpResponse) => boolean {
  const any = origins.includes('*');
  const allowed = new Set(origins);
  return (req, res) => {
    const origin = req.headers.origin;
    if (origin === undefined || !(any || allowed.has(origin))) return false;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) {
      res.setHeader('Access-Control-Expose-Headers', EXPOSED);
      return false;
    }
    res.writeHead(204, {
      'Access-Control-Allow-Methods': 'GET, POST',
      // Whatever the client's SDK sends (authorization, anthropic-version, x-stainless-*, …).
      'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? 'authorization, content-type',
      'Access-Control-Max-Age': PREFLIGHT_MAX_AGE_S,
    });
    res.end();
    return true;
  };
}
