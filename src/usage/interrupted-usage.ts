import type { Usage } from '../canonical/index.js';
import { estimateInputTokens } from './estimate-input-tokens.js';
import type { CutStream } from './record-stage.js';

/**
 * What a stream cut short is billed by:
 * - `estimate` (default): the provider bills what it generated until the cut, so the row holds
 *   the input (as reported when the answer began, else counted from the request with the
 *   o200k_base tokenizer) and the output sent (about 4 characters per token);
 * - `reported-only`: only what the provider reported; the rest stays unknown (the row is unpriced),
 *   for operators who reconcile such rows with the provider's invoice.
 */
export type InterruptedStreamPolicy = 'estimate' | 'reported-only';

/** Characters per output token for the estimate: the usual figure for English text and code. */
const CHARS_PER_TOKEN = 4;

export interface InterruptedUsage {
  usage: Usage;
  /** Whether any count was estimated rather than reported. */
  estimated: boolean;
}

export async function interruptedUsage(cut: CutStream, policy: InterruptedStreamPolicy): Promise<InterruptedUsage> {
  const reported = cut.startUsage ?? {};
  if (policy === 'reported-only') return { usage: reported, estimated: false };
  const inputTokens = reported.inputTokens ?? (await estimateInputTokens(cut.request));
  const counted = Math.ceil(cut.outputChars / CHARS_PER_TOKEN);
  // The stream began with an output event, so at least one token was generated; a start event's
  // output count (Anthropic's is 1 or so) is a floor too, not the answer.
  const outputTokens = Math.max(counted, reported.outputTokens ?? 0, 1);
  return { usage: { ...reported, inputTokens, outputTokens }, estimated: true };
}
