import { budgetUsdProblem } from './key-bounds.js';
import { GatewayError, type Caller } from '../canonical/index.js';
import { MAX_TOKEN_LIFETIME_S, mintToken } from './browser-tokens.js';

export interface TokenRequest {
  /** Seconds the token lives: 1 to 3600. Default 600. */
  expiresIn?: number;
  /** Models the token may call; must be among the parent key's. */
  models?: string[];
  /** The most the token may spend, in US dollars. */
  maxSpendUsd?: number;
}

export interface MintedToken {
  token: string;
  /** Epoch seconds. */
  expiresAt: number;
  parent: string;
  models: string[] | null;
  maxSpendUsd: number | null;
}

const DEFAULT_LIFETIME_S = 600;

const refused = (code: 'TOKEN_NEEDS_STORED_KEY' | 'TOKEN_REQUEST_INVALID', message: string, param?: string) =>
  new GatewayError({ code, message, ...(param ? { param } : {}) });

/** Mints browser tokens for callers holding a stored key, signed with the shared secret. */
export class TokenService {
  readonly #secret: () => Buffer | Promise<Buffer>;

  constructor(secret: () => Buffer | Promise<Buffer>) {
    this.#secret = secret;
  }

  async mint(caller: Caller, request: TokenRequest, now = Date.now()): Promise<MintedToken> {
    if (caller.keyId === undefined || caller.token !== undefined) {
      throw refused(
        'TOKEN_NEEDS_STORED_KEY',
        'Browser tokens are minted with a stored key (sk-sy-…) on your server, not with a key from the options or another token.',
      );
    }
    const lifetime = request.expiresIn ?? DEFAULT_LIFETIME_S;
    if (!Number.isInteger(lifetime) || lifetime < 1 || lifetime > MAX_TOKEN_LIFETIME_S) {
      throw refused('TOKEN_REQUEST_INVALID', `'expires_in' is a whole number of seconds from 1 to ${MAX_TOKEN_LIFETIME_S}.`, 'expires_in');
    }
    const outside = request.models?.filter((model) => caller.models !== undefined && !caller.models.includes(model)) ?? [];
    if (outside.length > 0)
      throw refused('TOKEN_REQUEST_INVALID', `The key may not call ${outside.join(', ')}, so neither may its token.`, 'models');
    const cap = request.maxSpendUsd;
    const capProblem = cap === undefined ? undefined : budgetUsdProblem(cap, 'positive');
    if (capProblem !== undefined) throw refused('TOKEN_REQUEST_INVALID', `'max_spend_usd' ${capProblem}.`, 'max_spend_usd');
    const { token, claims } = mintToken(await this.#secret(), {
      parent: caller.keyId,
      expiresAt: now + lifetime * 1000,
      ...(request.models === undefined ? {} : { models: request.models }),
      ...(cap === undefined ? {} : { spendCapNanoUsd: Math.round(cap * 1e9) }),
    });
    return {
      token,
      expiresAt: Math.floor(claims.expiresAt / 1000),
      parent: claims.parent,
      models: claims.models ?? null,
      maxSpendUsd: cap ?? null,
    };
  }
}
