import type { CanonicalRequest } from './request.js';
import type { Usage } from './usage.js';

/**
 * A stream cut short (the client left, or it failed in-band) before the provider reported its
 * usage: what was sent of it, which the usage ledger, the budget and the token limits bill it by.
 * (The gateway ending requests at shutdown is an interruption, `gateway.interrupt()`; a stream it
 * ends that way is cut short like any other.)
 */
export interface CutStream {
  /** True when the client left; false when the stream failed. */
  readonly clientLeft: boolean;
  /** The request, to estimate its input when the provider did not report it. */
  readonly request: CanonicalRequest;
  /** The usage reported as the answer began (Anthropic reports the input count there). */
  readonly startUsage: Usage | undefined;
  /** Characters of output sent (deltas; on a passed-through stream, the delta frames). */
  readonly outputChars: number;
  /**
   * Characters of reasoning sent (the `reasoning-delta` text), a part of `outputChars`: 0 when no
   * reasoning was streamed. Undefined when the sender did not count it: the reasoning count then
   * stays unknown (a model that prices reasoning apart is left unpriced, never billed as 0).
   */
  readonly reasoningChars?: number;
}

/** Characters per output token: the usual figure for English text and code. */
const CHARS_PER_TOKEN = 4;

/**
 * The output tokens a cut stream is counted at: about 4 characters per token of what was sent, at
 * least 1 (the stream began with an output event), and never below what the start reported.
 */
export function estimateCutOutputTokens(cut: CutStream): number {
  return Math.max(1, Math.ceil(cut.outputChars / CHARS_PER_TOKEN), cut.startUsage?.outputTokens ?? 0);
}

/**
 * The part of the output a cut stream's reasoning is counted at: the reasoning text sent, about 4
 * characters per token (0 when none was streamed), never more than the output; undefined when the
 * reasoning sent was not counted.
 */
export function estimateCutReasoningTokens(cut: CutStream): number | undefined {
  if (cut.reasoningChars === undefined) return undefined;
  return Math.min(estimateCutOutputTokens(cut), Math.ceil(cut.reasoningChars / CHARS_PER_TOKEN));
}
