import { describe, expect, it } from 'vitest';
import { messagesToolChoiceSchema, messagesToolSchema } from '../../../src/protocols/messages/schema.js';
import { decodeMessagesTool, decodeMessagesToolChoice } from '../../../src/protocols/messages/tools.js';

describe('decodeMessagesTool', () => {
  it('should map a custom tool to a function tool with input_schema as parameters', () => {
    const tool = messagesToolSchema.parse({
      name: 'get_weather',
      description: 'Weather',
      input_schema: { type: 'object', properties: { city: { type: 'string' } } },
      strict: true,
    });
    expect(decodeMessagesTool(tool)).toEqual({
      type: 'function',
      name: 'get_weather',
      description: 'Weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      strict: true,
    });
  });

  it('should keep Anthropic-only tool fields in extensions', () => {
    const tool = messagesToolSchema.parse({
      type: 'custom',
      name: 'a',
      input_schema: { type: 'object' },
      cache_control: { type: 'ephemeral' },
      defer_loading: true,
      eager_input_streaming: true,
    });
    expect(decodeMessagesTool(tool)).toMatchObject({
      type: 'function',
      extensions: { messages: { type: 'custom', cache_control: { type: 'ephemeral' }, defer_loading: true, eager_input_streaming: true } },
    });
  });

  it.each(['web_search_20250305', 'bash_20250124', 'text_editor_20250728'])(
    'should carry a %s tool verbatim as provider-defined',
    (type) => {
      const definition = { type, name: 'x', max_uses: 2 };
      expect(decodeMessagesTool(messagesToolSchema.parse(definition))).toEqual({
        type: 'provider-defined',
        protocol: 'messages',
        kind: type,
        name: 'x',
        definition,
      });
    },
  );
});

describe('decodeMessagesToolChoice', () => {
  it.each([
    [{ type: 'auto' }, { type: 'auto' }, undefined],
    [{ type: 'any' }, { type: 'required' }, undefined],
    [{ type: 'tool', name: 'get' }, { type: 'tool', name: 'get' }, undefined],
    [{ type: 'none' }, { type: 'none' }, undefined],
    [{ type: 'auto', disable_parallel_tool_use: true }, { type: 'auto' }, false],
    [{ type: 'tool', name: 'get', disable_parallel_tool_use: false }, { type: 'tool', name: 'get' }, true],
  ])('should map %j', (wire, toolChoice, parallelToolCalls) => {
    expect(decodeMessagesToolChoice(messagesToolChoiceSchema.parse(wire))).toEqual({ toolChoice, parallelToolCalls, unmapped: undefined });
  });
});
