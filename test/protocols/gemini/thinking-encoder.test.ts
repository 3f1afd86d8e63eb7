import { describe, expect, it } from 'vitest';
import type { ReasoningConfig } from '../../../src/canonical/index.js';
import { encodeGeminiRequest, geminiThinkingControl } from '../../../src/protocols/gemini/index.js';

const thinking = (model: string, reasoning: ReasoningConfig) =>
  encodeGeminiRequest({ model, stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], reasoning })
    .generationConfig?.thinkingConfig;

describe('Gemini thinking', () => {
  it('should tell level models, budget models and models that do not think apart by id', () => {
    expect(geminiThinkingControl('gemini-3.5-flash')).toEqual({ kind: 'level', hasMinimal: true });
    expect(geminiThinkingControl('gemini-3.7-flash')).toEqual({ kind: 'level', hasMinimal: false });
    expect(geminiThinkingControl('models/gemini-3-pro-preview')).toEqual({ kind: 'level', hasMinimal: false });
    expect(geminiThinkingControl('gemini-2.5-pro')).toMatchObject({ kind: 'budget', min: 128, max: 32768, canDisable: false });
    expect(geminiThinkingControl('gemini-2.5-flash-lite')).toMatchObject({ kind: 'budget', min: 0, max: 24576, canDisable: true });
    expect(geminiThinkingControl('gemini-2.0-flash')).toEqual({ kind: 'none' });
    expect(geminiThinkingControl('gemma-3-27b-it')).toEqual({ kind: 'none' });
    expect(geminiThinkingControl('gemini-flash-latest')).toEqual({ kind: 'level', hasMinimal: false });
  });

  it.each([
    ['minimal', 'MINIMAL'],
    ['low', 'LOW'],
    ['medium', 'MEDIUM'],
    ['high', 'HIGH'],
    ['xhigh', 'HIGH'],
    ['max', 'HIGH'],
  ] as const)('should map effort %s to thinkingLevel %s on Gemini 3 and ask for thought summaries', (effort, level) => {
    expect(thinking('gemini-3.5-flash', { effort })).toEqual({ thinkingLevel: level, includeThoughts: true });
  });

  it('should use LOW for minimal effort where MINIMAL does not exist, and the lowest level when thinking is off', () => {
    expect(thinking('gemini-3-pro', { effort: 'minimal' })).toMatchObject({ thinkingLevel: 'LOW' });
    expect(thinking('gemini-3.5-flash', { effort: 'none' })).toEqual({ thinkingLevel: 'MINIMAL' });
    expect(thinking('gemini-3-pro', { mode: 'disabled' })).toEqual({ thinkingLevel: 'LOW' });
  });

  it('should map a token budget to a level on Gemini 3, and leave adaptive thinking to the model', () => {
    expect(thinking('gemini-3.5-flash', { mode: 'enabled', budgetTokens: 1024 })).toEqual({ thinkingLevel: 'LOW', includeThoughts: true });
    expect(thinking('gemini-3.5-flash', { mode: 'enabled', budgetTokens: 32000 })).toMatchObject({ thinkingLevel: 'HIGH' });
    expect(thinking('gemini-3.5-flash', { mode: 'adaptive' })).toEqual({ includeThoughts: true });
  });

  it('should pass a budget on Gemini 2.5, clamped to the model range, and map efforts to budgets', () => {
    expect(thinking('gemini-2.5-flash', { mode: 'enabled', budgetTokens: 5000 })).toEqual({ thinkingBudget: 5000, includeThoughts: true });
    expect(thinking('gemini-2.5-flash', { mode: 'enabled', budgetTokens: 99999 })).toMatchObject({ thinkingBudget: 24576 });
    expect(thinking('gemini-2.5-pro', { effort: 'max' })).toMatchObject({ thinkingBudget: 32768 });
    expect(thinking('gemini-2.5-flash', { effort: 'low' })).toMatchObject({ thinkingBudget: 1024 });
    expect(thinking('gemini-2.5-flash', { mode: 'adaptive' })).toMatchObject({ thinkingBudget: -1 });
  });

  it('should turn 2.5 Flash thinking off with budget 0 and 2.5 Pro down to its minimum', () => {
    expect(thinking('gemini-2.5-flash', { mode: 'disabled' })).toEqual({ thinkingBudget: 0 });
    expect(thinking('gemini-2.5-pro', { effort: 'none' })).toEqual({ thinkingBudget: 128 });
  });

  it('should not ask for thought text when the client wants it omitted', () => {
    expect(thinking('gemini-3.5-flash', { effort: 'high', display: 'omitted' })).toEqual({ thinkingLevel: 'HIGH' });
  });

  it('should refuse reasoning on a model that cannot think, but accept turning it off there', () => {
    expect(() => thinking('gemini-2.0-flash', { effort: 'high' })).toThrow(/does not support reasoning/);
    expect(thinking('gemini-2.0-flash', { mode: 'disabled' })).toBeUndefined();
  });
});
