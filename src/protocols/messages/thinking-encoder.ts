import type { ReasoningConfig, ReasoningEffort } from '../../canonical/index.js';

/** Anthropic's smallest thinking budget. */
export const MESSAGES_MIN_THINKING_BUDGET = 1024;

/**
 * Effort → `budget_tokens` when a request asks for an effort but no budget (OpenAI-style
 * `reasoning_effort`). LiteLLM's defaults, with minimal raised to Anthropic's floor and the two
 * efforts above high doubling.
 */
export const messagesThinkingBudgets: Readonly<Record<Exclude<ReasoningEffort, 'none'>, number>> = {
  minimal: 1024,
  low: 1024,
  medium: 2048,
  high: 4096,
  xhigh: 8192,
  max: 16384,
};

/** `output_config.effort` values; `minimal` has none and rounds up to `low`. */
type MessagesEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export interface EncodedMessagesThinking {
  /** The `thinking` object, or undefined to send none. */
  thinking: Record<string, unknown> | undefined;
  /** `output_config.effort`, when the request set an effort alongside an Anthropic thinking mode. */
  effort: MessagesEffort | undefined;
  /** `budget_tokens` when thinking is enabled with a budget (max_tokens must exceed it). */
  budgetTokens: number | undefined;
  /** Thinking may run: forced tool choice and non-default sampling are refused by Anthropic then. */
  active: boolean;
}

function wireEffort(effort: ReasoningEffort | undefined): MessagesEffort | undefined {
  if (effort === undefined || effort === 'none') return undefined;
  return effort === 'minimal' ? 'low' : effort;
}

function budgetOf(reasoning: ReasoningConfig): number {
  const effort = reasoning.effort === undefined || reasoning.effort === 'none' ? 'medium' : reasoning.effort;
  return Math.max(MESSAGES_MIN_THINKING_BUDGET, reasoning.budgetTokens ?? messagesThinkingBudgets[effort]);
}

function withDisplay(thinking: Record<string, unknown>, reasoning: ReasoningConfig): Record<string, unknown> {
  return reasoning.display === undefined ? thinking : { ...thinking, display: reasoning.display };
}

/**
 * Canonical reasoning → `thinking` (+ `output_config.effort`):
 * - mode `disabled`, or effort `none` without a mode → `{type:"disabled"}`;
 * - mode `adaptive` → `{type:"adaptive"}`, effort → `output_config.effort`;
 * - mode `enabled` → `{type:"enabled", budget_tokens}` (the budget given, else the effort's);
 * - no mode but an effort or a budget (OpenAI `reasoning_effort`, …) → enabled with the budget of
 *   `messagesThinkingBudgets`. Such an effort is not also sent as `output_config.effort`.
 * Budgets are raised to Anthropic's minimum of 1024. `extra` (fields of a Messages client's
 * `thinking` without a canonical home, or a whole `thinking` of a type the canonical model
 * lacks, like `between_tools`) is put back.
 */
export function encodeMessagesThinking(
  reasoning: ReasoningConfig | undefined,
  extra: Record<string, unknown> | undefined,
): EncodedMessagesThinking {
  const mode = reasoning?.mode;
  const anthropicEffort = mode === undefined ? undefined : wireEffort(reasoning?.effort);
  let built: Record<string, unknown> | undefined;
  let budgetTokens: number | undefined;
  if (reasoning === undefined) {
    built = undefined;
  } else if (mode === 'disabled' || (mode === undefined && reasoning.effort === 'none')) {
    built = { type: 'disabled' };
  } else if (mode === 'adaptive') {
    built = withDisplay({ type: 'adaptive' }, reasoning);
  } else if (mode === 'enabled' || reasoning.effort !== undefined || reasoning.budgetTokens !== undefined) {
    budgetTokens = budgetOf(reasoning);
    built = withDisplay({ type: 'enabled', budget_tokens: budgetTokens }, reasoning);
  }
  const thinking = built === undefined ? (typeof extra?.type === 'string' ? extra : undefined) : { ...extra, ...built };
  return { thinking, effort: anthropicEffort, budgetTokens, active: thinking !== undefined && thinking.type !== 'disabled' };
}
