import { describe, expect, it } from 'vitest';
import { decodeResponsesToolChoice, encodeResponsesToolChoice } from '../../../src/protocols/responses/tool-choice.js';

describe('decodeResponsesToolChoice', () => {
  it.each(['none', 'auto', 'required'] as const)('should map %s', (choice) => {
    expect(decodeResponsesToolChoice(choice, ['tool_choice'])).toEqual({ toolChoice: { type: choice } });
  });

  it('should map the flat function form to a forced tool', () => {
    expect(decodeResponsesToolChoice({ type: 'function', name: 'get_weather' }, ['tool_choice'])).toEqual({
      toolChoice: { type: 'tool', name: 'get_weather' },
    });
  });

  it('should map allowed_tools over functions to a narrowed auto/required', () => {
    const choice = {
      type: 'allowed_tools',
      mode: 'required',
      tools: [
        { type: 'function', name: 'a' },
        { type: 'function', name: 'b' },
      ],
    };
    expect(decodeResponsesToolChoice(choice, ['tool_choice'])).toEqual({ toolChoice: { type: 'required', allowedTools: ['a', 'b'] } });
  });

  it.each([
    { name: 'a custom tool', choice: { type: 'custom', name: 'apply_patch' } },
    { name: 'an mcp tool', choice: { type: 'mcp', server_label: 'deepwiki' } },
    { name: 'a hosted tool', choice: { type: 'web_search_preview' } },
    { name: 'allowed_tools naming a hosted tool', choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'web_search' }] } },
  ])('should keep $name as an extension', ({ choice }) => {
    expect(decodeResponsesToolChoice(choice, ['tool_choice'])).toEqual({ extension: choice });
  });
});

describe('encodeResponsesToolChoice', () => {
  it('should default to auto and give back every canonical form', () => {
    expect(encodeResponsesToolChoice(undefined)).toBe('auto');
    expect(encodeResponsesToolChoice({ type: 'none' })).toBe('none');
    expect(encodeResponsesToolChoice({ type: 'tool', name: 'f' })).toEqual({ type: 'function', name: 'f' });
    expect(encodeResponsesToolChoice({ type: 'auto', allowedTools: ['f'] })).toEqual({
      type: 'allowed_tools',
      mode: 'auto',
      tools: [{ type: 'function', name: 'f' }],
    });
  });
});
