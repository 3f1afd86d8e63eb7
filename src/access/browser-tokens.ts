import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived tokens a browser may hold instead of a key: `sy-tok-<claims>.<signature>`, the
 * claims base64url JSON, signed with HMAC-SHA256 by a secret every instance shares (kept in the
 * database). A token names its parent key and dies with it: each use checks the parent too.
 */
export const TOKEN_PREFIX = 'sy-tok-';
/** The longest a token may live. */
export const MAX_TOKEN_LIFETIME_S = 3_600;

export interface TokenClaims {
  /** The token's own id, for its spend cap and the ledger. */
  id: string;
  /** The parent key's public id. */
  parent: string;
  /** Epoch milliseconds after which the token is refused. */
  expiresAt: number;
  /** Models the token may call (within its parent's); every model its parent may call when absent. */
  models?: string[];
  /** The most the token may spend, in nano-USD. */
  spendCapNanoUsd?: number;
}

interface WireClaims {
  v: 1;
  i: string;
  k: string;
  e: number;
  m?: string[];
  c?: number;
}

const sign = (secret: Buffer, body: string) => createHmac('sha256', secret).update(body).digest();

export function mintToken(secret: Buffer, claims: Omit<TokenClaims, 'id'>): { token: string; claims: TokenClaims } {
  const id = randomBytes(12).toString('base64url');
  const wire: WireClaims = {
    v: 1,
    i: id,
    k: claims.parent,
    e: claims.expiresAt,
    ...(claims.models === undefined ? {} : { m: claims.models }),
    ...(claims.spendCapNanoUsd === undefined ? {} : { c: claims.spendCapNanoUsd }),
  };
  const body = `${TOKEN_PREFIX}${Buffer.from(JSON.stringify(wire)).toString('base64url')}`;
  return { token: `${body}.${sign(secret, body).toString('base64url')}`, claims: { ...claims, id } };
}

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; reason: 'invalid' | 'expired' };

/** Checks a token's signature and expiry (not its parent). */
export function verifyToken(secret: Buffer, token: string, now = Date.now()): TokenCheck {
  const dot = token.lastIndexOf('.');
  if (!token.startsWith(TOKEN_PREFIX) || dot === -1) return { ok: false, reason: 'invalid' };
  const body = token.slice(0, dot);
  const presented = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = sign(secret, body);
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return { ok: false, reason: 'invalid' };
  let wire: WireClaims;
  try {
    wire = JSON.parse(Buffer.from(body.slice(TOKEN_PREFIX.length), 'base64url').toString('utf8')) as WireClaims;
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (wire.v !== 1 || typeof wire.k !== 'string' || typeof wire.e !== 'number') return { ok: false, reason: 'invalid' };
  if (wire.e <= now) return { ok: false, reason: 'expired' };
  return {
    ok: true,
    claims: {
      id: wire.i,
      parent: wire.k,
      expiresAt: wire.e,
      ...(wire.m === undefined ? {} : { models: wire.m }),
      ...(wire.c === undefined ? {} : { spendCapNanoUsd: wire.c }),
    },
  };
}
