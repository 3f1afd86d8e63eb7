import type { HttpRequest } from '../http/types.js';

/** How one family of endpoints treats its callers. */
export interface EndpointRules {
  /** Anthropic clients send their key in `x-api-key`. */
  readonly acceptXApiKey: boolean;
  readonly requireAnthropicVersion: boolean;
  /** Caller headers passed to the provider as `clientHeaders` (lower-case names). */
  readonly forwardedHeaders: readonly string[];
}

export const openAIRules: EndpointRules = { acceptXApiKey: false, requireAnthropicVersion: false, forwardedHeaders: [] };
export const anthropicRules: EndpointRules = { acceptXApiKey: true, requireAnthropicVersion: true, forwardedHeaders: ['anthropic-beta'] };

/** The caller headers the rules forward that are present; undefined when none are. */
export function pickClientHeaders(req: HttpRequest, rules: EndpointRules): Record<string, string> | undefined {
  let picked: Record<string, string> | undefined;
  for (const name of rules.forwardedHeaders) {
    const value = req.headers[name];
    if (typeof value === 'string' && value !== '') (picked ??= {})[name] = value;
  }
  return picked;
}
