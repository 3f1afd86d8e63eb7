import { estimateCutOutputTokens, estimateCutReasoningTokens, type CutStream, type Usage } from '../canonical/index.js';
import { estimateInputTokens } from './estimate-input-tokens.js';

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

export interface CutStreamUsage {
  /** Undefined when nothing was reported and nothing estimated. */
  usage: Usage | undefined;
  /** Whether any count was estimated rather than reported. */
  estimated: boolean;
}

/**
 * The counts a cut stream's start reported that are totals: its input side. The output count
 * there (Anthropic's `output_tokens` in `message_start`) runs on until the answer ends, and so does
 * a total made from it: neither is what the provider bills. Undefined when none was reported.
 */
export function reportedCutUsage(cut: CutStream): Usage | undefined {
  const start = cut.startUsage;
  if (start === undefined) return undefined;
  const usage: Usage = {};
  if (start.inputTokens !== undefined) usage.inputTokens = start.inputTokens;
  if (start.cachedInputTokens !== undefined) usage.cachedInputTokens = start.cachedInputTokens;
  if (start.cacheWriteTokens !== undefined) usage.cacheWriteTokens = start.cacheWriteTokens;
  if (start.cacheWrite1hTokens !== undefined) usage.cacheWrite1hTokens = start.cacheWrite1hTokens;
  return Object.keys(usage).length === 0 ? undefined : usage;
}

export async function cutStreamUsage(cut: CutStream, policy: InterruptedStreamPolicy): Promise<CutStreamUsage> {
  const reported = reportedCutUsage(cut);
  if (policy === 'reported-only') return { usage: reported, estimated: false };
  const inputTokens = reported?.inputTokens ?? (await estimateInputTokens(cut.request));
  const outputTokens = estimateCutOutputTokens(cut);
  const reasoningTokens = estimateCutReasoningTokens(cut);
  return {
    usage: { ...reported, inputTokens, outputTokens, ...(reasoningTokens === undefined ? {} : { reasoningTokens }) },
    estimated: true,
  };
}
