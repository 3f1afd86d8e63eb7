import { estimateCutOutputTokens, estimateCutReasoningTokens, type Usage } from '../canonical/index.js';
import { estimateInputTokens } from './estimate-input-tokens.js';
import type { CutStream } from './record-stage.js';

/**
 * What a stream cut short is billed by:
 * - `estimate` (default): the provider bills what it generated until the cut, so the row holds
 *   the input (as reported when the answer began, else counted from the request with the
 *   o200k_base tokenizer) and the output sent (about 4 characters per token), of which the
 *   reasoning text sent is reasoning (0 when none was streamed);
 * - `reported-only`: only what the provider reported; the rest stays unknown (the row is unpriced),
 *   for operators who reconcile such rows with the provider's invoice.
 */
export type InterruptedStreamPolicy = 'estimate' | 'reported-only';

export interface InterruptedUsage {
  usage: Usage;
  /** Whether any count was estimated rather than reported. */
  estimated: boolean;
}

export async function interruptedUsage(cut: CutStream, policy: InterruptedStreamPolicy): Promise<InterruptedUsage> {
  const reported = cut.startUsage ?? {};
  if (policy === 'reported-only') return { usage: reported, estimated: false };
  const inputTokens = reported.inputTokens ?? (await estimateInputTokens(cut.request));
  const outputTokens = estimateCutOutputTokens(cut);
  const reasoningTokens = estimateCutReasoningTokens(cut) ?? reported.reasoningTokens;
  return { usage: { ...reported, inputTokens, outputTokens, ...(reasoningTokens === undefined ? {} : { reasoningTokens }) }, estimated: true };
}
