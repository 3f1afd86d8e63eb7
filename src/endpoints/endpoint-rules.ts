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
