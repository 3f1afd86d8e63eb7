import { isIP } from 'node:net';
import { GatewayError } from '../canonical/index.js';
import { chatCodec } from '../protocols/chat-completions/index.js';
import { messagesCodec } from '../protocols/messages/index.js';
import { createRequestId } from './request-id.js';
import { sendError } from './send-error.js';
import type { HttpRequest, HttpResponse } from './types.js';

/**
 * Host names a server answers to besides IP literals, `localhost`, `*.localhost` and its listen
 * address: exact names, or `.example.com` for example.com and every name under it; `true` or `'*'`:
 * any name (the check is off).
 */
export type AllowedHosts = true | '*' | readonly string[];

/** `name`, `name:port`, `[v6]`, `[v6]:port`; anything else is no host name. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[^\s:[\]/@?#]+)(?::\d{1,5})?$/i;

/**
 * Whether a request's `Host` names this server. A page of another site can make a browser send
 * requests to a server on 127.0.0.1 under a name that the attacker's DNS points there (DNS
 * rebinding), with the browser's same-origin rules on its side; such a request carries the
 * attacker's name in `Host`, so only names the server is known by are answered. A request
 * without `Host` (HTTP/1.0) comes from no browser and passes.
 */
export function createHostCheck(allowed: AllowedHosts | undefined, listenHost?: string): (host: string | undefined) => boolean {
  if (allowed === true || allowed === '*') return () => true;
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const entry of [...(allowed ?? []), ...(listenHost === undefined ? [] : [listenHost])]) {
    const name = entry.trim().toLowerCase().replace(/\.$/, '');
    if (name.startsWith('.')) suffixes.push(name);
    else if (name !== '') exact.add(name);
  }
  return (host) => {
    if (host === undefined) return true;
    const match = HOST_HEADER.exec(host.trim());
    if (match === null) return false;
    const name = (match[1] ?? '').toLowerCase().replace(/\.$/, '');
    if (name.startsWith('[') || isIP(name) !== 0) return true;
    if (name === 'localhost' || name.endsWith('.localhost')) return true;
    return exact.has(name) || suffixes.some((suffix) => name === suffix.slice(1) || name.endsWith(suffix));
  };
}

/**
 * The refusal of a request whose `Host` is not allowed: a 403 (the request reached the right server
 * under a name it will not answer to: no other connection would do better, which a 421 would
 * suggest), in Anthropic's error shape on Messages paths and OpenAI's elsewhere, naming the setting.
 */
export function sendHostNotAllowed(req: HttpRequest, res: HttpResponse, setting: string): void {
  const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
  const shown = (req.headers.host ?? '').slice(0, 255);
  const error = new GatewayError({
    code: 'HOST_NOT_ALLOWED',
    message: `This server does not answer to the host name '${shown}'. If it is this server's name, add it to ${setting} (or set it to true to allow any name).`,
  });
  const codec = path.includes('/messages') || req.headers['anthropic-version'] !== undefined ? messagesCodec : chatCodec;
  sendError(res, codec, error, createRequestId());
}
