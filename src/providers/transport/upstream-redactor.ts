/** Headers whose values are the gateway's credentials for a provider. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key', 'api-key', 'x-goog-api-key', 'proxy-authorization']);

/** Query parameters that carry a credential (Gemini's `key`). */
const CREDENTIAL_PARAMS = new Set(['key', 'api_key', 'api-key']);

/** Shorter values are not masked wherever they appear: a placeholder such as `none` would mask ordinary words. */
const SHORTEST_SECRET = 12;

/** Longest upstream message kept: a proxy's HTML page or an 8 MB error body is not a message. */
const MESSAGE_MAX = 1_000;

/** Text shaped like a credential, whoever's: a bearer token and the providers' key formats. */
const KEY_SHAPES = [
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(?:sk|rk|pk)-(?:ant-|proj-|svcacct-|or-)?[A-Za-z0-9_-]{16,}/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\b(?:gsk|xai|hf)_[A-Za-z0-9]{20,}/g,
];

/** URLs on loopback, private and link-local addresses: the gateway's own network. */
const PRIVATE_URL =
  /\bhttps?:\/\/(?:localhost|127(?:\.\d{1,3}){3}|10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|169\.254(?:\.\d{1,3}){2}|\[[0-9a-f:.]+\])(?::\d+)?[^\s"'<>\\]*/gi;

const REDACTED = '[redacted]';

/**
 * Keeps what an upstream says from giving away what only the gateway may know: its credentials
 * for the provider (a server that echoes the key it received would hand it to every caller) and
 * the provider's internal address. Built once per upstream from its configured headers and URL.
 */
export class UpstreamRedactor {
  readonly #secrets: string[];
  readonly #roots: string[];
  readonly #origins: string[];
  readonly #name: string;

  constructor(name: string, baseURL: URL, headers: Record<string, string>, query: Record<string, string> | undefined) {
    this.#name = name;
    const secrets = new Set<string>();
    for (const [header, value] of Object.entries(headers)) {
      if (!CREDENTIAL_HEADERS.has(header.toLowerCase())) continue;
      secrets.add(value);
      secrets.add(value.replace(/^(Bearer|Basic)\s+/i, ''));
    }
    for (const [param, value] of Object.entries(query ?? {})) if (CREDENTIAL_PARAMS.has(param.toLowerCase())) secrets.add(value);
    for (const [param, value] of baseURL.searchParams) if (CREDENTIAL_PARAMS.has(param.toLowerCase())) secrets.add(value);
    // Longest first, so a key is masked whole before a part of it could be.
    this.#secrets = [...secrets].filter((secret) => secret.length >= SHORTEST_SECRET).sort((a, b) => b.length - a.length);
    // A text holds no secret unless it holds one that contains no other (`Bearer sk-…` contains
    // `sk-…`): those alone are looked for in the text that holds none, nearly every one.
    this.#roots = this.#secrets.filter((secret) => !this.#secrets.some((other) => other !== secret && secret.includes(other)));
    this.#origins = [...new Set([baseURL.origin, baseURL.host])].sort((a, b) => b.length - a.length);
  }

  /** Whether any credential is known: without one, `maskSecrets` has nothing to do. */
  get hasSecrets(): boolean {
    return this.#secrets.length > 0;
  }

  /** `text` with the gateway's own credentials masked: cheap enough for every message of a stream. */
  maskSecrets(text: string): string {
    if (!this.#roots.some((root) => text.includes(root))) return text;
    let masked = text;
    for (const secret of this.#secrets) if (masked.includes(secret)) masked = masked.replaceAll(secret, REDACTED);
    return masked;
  }

  /**
   * An upstream's error text as the caller and the log may see it: credentials (the gateway's, and
   * anything shaped like a key) masked, the provider's address and private URLs replaced by the
   * provider's name. The text may be raw JSON: nothing put in needs escaping.
   */
  cleanErrorText(text: string): string {
    let clean = this.maskSecrets(text);
    for (const shape of KEY_SHAPES) clean = clean.replace(shape, (match) => (/^bearer/i.test(match) ? `Bearer ${REDACTED}` : REDACTED));
    clean = clean.replace(PRIVATE_URL, this.#name);
    for (const origin of this.#origins) if (clean.includes(origin)) clean = clean.replaceAll(origin, this.#name);
    return clean;
  }

  /** A message for the caller: cleaned and at most MESSAGE_MAX characters. */
  cleanMessage(message: string): string {
    const clean = this.cleanErrorText(message);
    return clean.length <= MESSAGE_MAX ? clean : `${clean.slice(0, MESSAGE_MAX)}…`;
  }
}
