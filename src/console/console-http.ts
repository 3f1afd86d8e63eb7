import type { TLSSocket } from 'node:tls';
import type { HttpRequest, HttpResponse } from '../http/types.js';
import type { Html } from './html.js';

/** A form body larger than this is refused (the console's forms are a few hundred bytes). */
const FORM_LIMIT_BYTES = 64 * 1024;

/** Every console page: no caching (a page may hold a key once), no framing, only the console's own script and style. */
const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
} as const;

export function sendHtml(res: HttpResponse, status: number, page: Html, cookies: readonly string[] = []): void {
  const body = page.text;
  res.writeHead(status, {
    ...PAGE_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    ...(cookies.length === 0 ? {} : { 'Set-Cookie': [...cookies] }),
  });
  res.end(body);
}

export function sendText(res: HttpResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...PAGE_HEADERS, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), ...extra });
  res.end(body);
}

/** A 303 (a form's answer: the browser follows with a GET). */
export function redirect(res: HttpResponse, location: string, cookies: readonly string[] = []): void {
  res.writeHead(303, {
    ...PAGE_HEADERS,
    Location: location,
    'Content-Length': 0,
    ...(cookies.length === 0 ? {} : { 'Set-Cookie': [...cookies] }),
  });
  res.end();
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!cookies.has(name)) {
      try {
        cookies.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
      } catch {
        // A cookie that is not ours (bad escapes) is ignored.
      }
    }
  }
  return cookies;
}

export interface CookieFlags {
  path: string;
  secure: boolean;
  /** Seconds; 0 deletes the cookie; absent: until the browser closes. */
  maxAgeSeconds?: number;
}

/** An HttpOnly, SameSite=Lax cookie (Lax: a link from elsewhere still arrives signed in; forms from elsewhere do not). */
export function serializeCookie(name: string, value: string, flags: CookieFlags): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${flags.path}`, 'HttpOnly', 'SameSite=Lax'];
  if (flags.secure) parts.push('Secure');
  if (flags.maxAgeSeconds !== undefined) parts.push(`Max-Age=${flags.maxAgeSeconds}`);
  return parts.join('; ');
}

/** The scheme and host the browser used; `trustProxy`: as a reverse proxy's `X-Forwarded-*` say. */
export function originOf(req: HttpRequest, trustProxy: boolean): { scheme: string; host: string } {
  const forwardedProto = trustProxy ? firstOf(req.headers['x-forwarded-proto']) : undefined;
  const forwardedHost = trustProxy ? firstOf(req.headers['x-forwarded-host']) : undefined;
  const scheme = forwardedProto ?? req.protocol ?? ((req.socket as TLSSocket).encrypted ? 'https' : 'http');
  return { scheme, host: forwardedHost ?? req.headers.host ?? 'localhost' };
}

/**
 * The client's address, for sign-in limits. Behind `proxyHops` trusted proxies it is the entry of
 * `X-Forwarded-For` the outermost of them wrote: each proxy appends the address it saw, so entries
 * right of it come from trusted proxies and those left of it from the client (who can write anything).
 */
export function clientAddress(req: HttpRequest, proxyHops: number): string {
  const socket = req.socket.remoteAddress ?? 'unknown';
  if (proxyHops === 0) return socket;
  const header = req.headers['x-forwarded-for'];
  const entries = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) return socket;
  // Fewer entries than proxies: the chain was shorter this time; the left-most is the furthest address known.
  return entries[Math.max(0, entries.length - proxyHops)] ?? socket;
}

function firstOf(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const first = value?.split(',')[0]?.trim();
  return first === undefined || first === '' ? undefined : first;
}

export class FormTooLarge extends Error {}

/** A urlencoded form body; a body an Express parser already read is taken as it is. */
export async function readForm(req: HttpRequest): Promise<URLSearchParams> {
  if (req.body !== undefined && req.body !== null && typeof req.body === 'object' && !Buffer.isBuffer(req.body)) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(req.body as Record<string, unknown>)) {
      for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string') params.append(name, item);
    }
    return params;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT_BYTES) throw new FormTooLarge('form too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
