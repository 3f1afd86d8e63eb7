/**
 * Token counts. Every count is optional: unknown is `undefined`, never 0, so
 * nothing is billed as free by mistake.
 */
export interface Usage {
  /** All input tokens, cache reads and writes included (OpenAI's meaning). */
  inputTokens?: number;
  /** All output tokens, reasoning included. */
  outputTokens?: number;
  /** The part of `inputTokens` read from a prompt cache. */
  cachedInputTokens?: number;
  /** The part of `inputTokens` written to a prompt cache. */
  cacheWriteTokens?: number;
  /** The part of `cacheWriteTokens` written to a 1-hour cache (Anthropic); the rest is the 5-minute cache. */
  cacheWrite1hTokens?: number;
  /** The part of `outputTokens` spent on reasoning. */
  reasoningTokens?: number;
  totalTokens?: number;
}
