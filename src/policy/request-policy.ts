/**
 * What the gateway does with a part of a request that costs the operator money or reaches beyond
 * the request: pass it on (`allow`), leave it out and serve the request (`strip`), or answer 400
 * naming it (`refuse`).
 */
export type PolicyAction = 'allow' | 'strip' | 'refuse';

/**
 * Which pass-through fields, hosted tools and `anthropic-beta` values reach the provider, and the
 * largest `n` and output a caller may ask for. Every entry is optional: what a layer leaves out,
 * the layer below it decides (key ← model ← gateway ← built-in default, field by field).
 *
 * Names in `fields`, `tools` and `anthropicBetas` are exact, or end in `*` to match a prefix
 * (`'context-1m-*'`); `'*'` alone is every name no other entry matches.
 * @example
 * requestPolicy: {
 *   fields: { service_tier: 'allow' },
 *   tools: { web_search: 'allow' },
 *   anthropicBetas: { 'context-1m-*': 'allow' },
 *   maxOutputTokens: 16000,
 * }
 */
export interface RequestPolicy {
  /**
   * Top-level request fields the gateway passes on as they came (those without a shared meaning
   * across protocols, e.g. `service_tier`, `store`, `logit_bias`, `mcp_servers`), by wire name, on
   * whichever protocol carries them.
   */
  fields?: Record<string, PolicyAction>;
  /**
   * Hosted tools (run by the provider, billed to the operator), by kind without version suffix:
   * `web_search`, `web_fetch`, `mcp`, `code_execution`, `file_search`, `image_generation`, or
   * another tool's wire type. Functions the caller runs itself are never policed.
   */
  tools?: Record<string, PolicyAction>;
  /** `anthropic-beta` header values a Messages caller sends. A refused value is a 400; a stripped one is not sent. */
  anthropicBetas?: Record<string, PolicyAction>;
  /** Largest Chat `n` (choices per request). Over it: 400 (fewer choices than asked would break the caller). */
  maxChoices?: number;
  /**
   * Largest output (`max_tokens`, `max_completion_tokens`, `max_output_tokens`). Over it, the
   * request is sent with this maximum (the answer may then end early, with finish reason `length`);
   * a request that sets none is sent with it. A thinking budget is scaled down with it.
   */
  maxOutputTokens?: number;
}

/** The gateway's `requestPolicy`: its default for every key and model, and overrides per key. */
export interface RequestPolicyOptions extends RequestPolicy {
  /**
   * Overrides for one key, by a stored key's public id or name (`options` for the keys given in
   * `apiKeys`); they win over the model's policy and the gateway's, field by field.
   */
  keys?: Record<string, RequestPolicy>;
}
