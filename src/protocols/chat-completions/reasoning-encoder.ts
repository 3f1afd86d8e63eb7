import { unsupportedFeatureError } from '../../canonical/index.js';
import type { ReasoningConfig, ReasoningEffort } from '../../canonical/index.js';
import type { ChatDialect } from './dialect.js';

const effortOrder: readonly ReasoningEffort[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

/**
 * A thinking budget (Anthropic `budget_tokens`) as an effort, the inverse of LiteLLM's default
 * effort→budget table (low 1024, medium 2048, high 4096).
 */
function effortOfBudget(budget: number): ReasoningEffort {
  if (budget <= 1024) return 'low';
  if (budget <= 2048) return 'medium';
  return 'high';
}

/** The accepted effort nearest to `effort` (ties go to the stronger one). */
function nearestEffort(effort: ReasoningEffort, accepted: readonly ReasoningEffort[]): ReasoningEffort | undefined {
  if (accepted.includes(effort)) return effort;
  // "Off" has no nearest neighbour: an upstream that cannot turn reasoning off keeps its default.
  if (effort === 'none') return undefined;
  const at = effortOrder.indexOf(effort);
  let best: ReasoningEffort | undefined;
  let bestDistance = Infinity;
  for (const candidate of accepted) {
    const distance = Math.abs(effortOrder.indexOf(candidate) - at);
    if (distance < bestDistance || (distance === bestDistance && effortOrder.indexOf(candidate) > at)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `true` when the request turns reasoning off: effort `none`, or mode `disabled` with no effort. */
function isOff(reasoning: ReasoningConfig): boolean {
  return reasoning.effort === 'none' || (reasoning.mode === 'disabled' && reasoning.effort === undefined);
}

/**
 * Reasoning settings → body fields for the dialect.
 *
 * - An explicit effort is sent (moved to the nearest effort the upstream accepts); a budget with
 *   no effort becomes an effort (≤1024 low, ≤2048 medium, else high) except for
 *   OpenRouter-style `reasoning: {max_tokens}`, which takes the budget itself.
 * - `disabled` with no effort sends nothing (OpenAI models that cannot stop reasoning reject
 *   `none`, and non-reasoning models reject the field); an explicit effort `none` is sent.
 * - `enabled`/`adaptive` with neither effort nor budget leaves the model's default.
 * - DeepSeek-style dialects get `thinking: {type: enabled|disabled}` (+ `reasoning_effort`).
 */
export function encodeChatReasoningFields(
  reasoning: ReasoningConfig | undefined,
  dialect: ChatDialect,
  model: string,
): Record<string, unknown> {
  if (reasoning === undefined) return {};
  const effort = reasoning.effort ?? (reasoning.budgetTokens === undefined ? undefined : effortOfBudget(reasoning.budgetTokens));
  const wireEffort = effort === undefined ? undefined : nearestEffort(effort, dialect.reasoningEfforts);
  const effortField = wireEffort === undefined ? {} : { reasoning_effort: wireEffort };
  switch (dialect.reasoningControl) {
    case 'reasoning_effort':
      if (reasoning.mode === 'disabled' && reasoning.effort === undefined) return {};
      return effortField;
    case 'reasoning_object': {
      if (reasoning.mode === 'disabled' && reasoning.effort === undefined) return {};
      if (reasoning.effort !== undefined) return { reasoning: { effort: reasoning.effort } };
      if (reasoning.budgetTokens !== undefined) return { reasoning: { max_tokens: reasoning.budgetTokens } };
      return reasoning.mode === 'enabled' ? { reasoning: { enabled: true } } : {};
    }
    case 'thinking':
      if (isOff(reasoning)) return { thinking: { type: 'disabled' } };
      if (effort === undefined && reasoning.mode === undefined) return {};
      return { thinking: { type: 'enabled' }, ...(wireEffort === 'none' ? {} : effortField) };
    case 'none':
      if (isOff(reasoning) || (effort === undefined && reasoning.mode !== 'enabled')) return {};
      throw unsupportedFeatureError('choosing reasoning per request', model, { param: 'reasoning' });
  }
}
