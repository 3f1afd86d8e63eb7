import { unsupportedFeatureError } from '../../canonical/index.js';
import type { ReasoningConfig, ReasoningEffort } from '../../canonical/index.js';
import type { GeminiThinkingConfig, GeminiThinkingLevel } from './upstream-schema.js';

/** How a Gemini model's thinking is controlled. */
export type GeminiThinkingControl =
  | { kind: 'none' }
  | { kind: 'budget'; min: number; max: number; canDisable: boolean }
  | { kind: 'level'; hasMinimal: boolean };

/**
 * From the model id: Gemini 3.x and later (and unversioned aliases such as `gemini-flash-latest`)
 * take `thinkingLevel`; 2.5 takes `thinkingBudget` (Pro: 128–32768, cannot be disabled; Flash and
 * Flash-Lite: 0–24576); older Gemini and Gemma models do not think.
 */
export function geminiThinkingControl(model: string): GeminiThinkingControl {
  const id = model.toLowerCase().replace(/^.*\//, '');
  if (!id.startsWith('gemini')) return { kind: 'none' };
  const version = /^gemini-(\d+)(?:\.(\d+))?/.exec(id);
  if (!version) return { kind: 'level', hasMinimal: false };
  const major = Number(version[1]);
  const minor = Number(version[2] ?? 0);
  if (major >= 3) return { kind: 'level', hasMinimal: id.includes('flash') && major === 3 && minor < 7 };
  if (major === 2 && minor >= 5) {
    return id.includes('pro')
      ? { kind: 'budget', min: 128, max: 32768, canDisable: false }
      : { kind: 'budget', min: 0, max: 24576, canDisable: true };
  }
  return { kind: 'none' };
}

const effortBudget: Record<Exclude<ReasoningEffort, 'none'>, number> = {
  minimal: 128,
  low: 1024,
  medium: 2048,
  high: 4096,
  xhigh: 16384,
  max: Number.POSITIVE_INFINITY,
};

function effortLevel(effort: Exclude<ReasoningEffort, 'none'>, hasMinimal: boolean): GeminiThinkingLevel {
  switch (effort) {
    case 'minimal':
      return hasMinimal ? 'MINIMAL' : 'LOW';
    case 'low':
      return 'LOW';
    case 'medium':
      return 'MEDIUM';
    case 'high':
    case 'xhigh':
    case 'max':
      return 'HIGH';
  }
}

/** A token budget (Anthropic `budget_tokens`) as a level, for models that only take levels. */
function budgetLevel(budget: number): GeminiThinkingLevel {
  if (budget <= 2048) return 'LOW';
  return budget <= 8192 ? 'MEDIUM' : 'HIGH';
}

const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));

/**
 * Canonical reasoning → `generationConfig.thinkingConfig`, or undefined to leave the model's default.
 * Thinking off: budget 0 (2.5 Pro: its minimum, 128), the lowest level on 3.x, nothing on models
 * that do not think. `includeThoughts` is asked for when reasoning is on and its text is wanted.
 * Reasoning requested from a model that cannot think is a 400.
 */
export function encodeGeminiThinkingConfig(
  reasoning: ReasoningConfig | undefined,
  model: string,
  modelLabel: string,
): GeminiThinkingConfig | undefined {
  if (!reasoning) return undefined;
  const control = geminiThinkingControl(model);
  const off = reasoning.mode === 'disabled' || reasoning.effort === 'none';
  const thoughts = !off && reasoning.display !== 'omitted' ? { includeThoughts: true } : {};
  const effort = reasoning.effort === 'none' ? undefined : reasoning.effort;

  if (control.kind === 'none') {
    if (off) return undefined;
    throw unsupportedFeatureError('reasoning (thinking)', modelLabel, { param: 'reasoning', reason: 'Google Gemini has no equivalent' });
  }
  if (control.kind === 'budget') {
    if (off) return { thinkingBudget: control.canDisable ? 0 : control.min };
    const wanted = reasoning.budgetTokens ?? (effort === undefined ? undefined : effortBudget[effort]);
    // -1 asks for a dynamic budget ("adaptive", or thinking on without a size).
    const budget = wanted === undefined ? -1 : clamp(wanted, Math.max(1, control.min), control.max);
    return { thinkingBudget: budget, ...thoughts };
  }
  if (off) return { thinkingLevel: control.hasMinimal ? 'MINIMAL' : 'LOW' };
  const level =
    effort !== undefined
      ? effortLevel(effort, control.hasMinimal)
      : reasoning.budgetTokens !== undefined
        ? budgetLevel(reasoning.budgetTokens)
        : undefined;
  return { ...(level === undefined ? {} : { thinkingLevel: level }), ...thoughts };
}
