import type { ToolChoice } from '../../canonical/index.js';
import { ResponsesToolChoiceAllowedSchema, ResponsesToolChoiceFunctionSchema, type ResponsesToolChoice } from './schema.js';
import { validateResponsesWire, type WirePath } from './validate-wire.js';

/**
 * `none`/`auto`/`required`, the flat `{type:"function", name}` and `allowed_tools` listing only
 * functions map onto the canonical ToolChoice. Any other form (custom, mcp, hosted tools,
 * allowed_tools naming hosted tools) has no canonical home: `toolChoice` stays unset and the wire
 * value is returned as `extension`, to be kept in `extensions.responses.tool_choice`.
 */
export function decodeResponsesToolChoice(
  choice: ResponsesToolChoice,
  path: WirePath,
): { toolChoice?: ToolChoice; extension?: Record<string, unknown> } {
  if (typeof choice === 'string') return { toolChoice: { type: choice } };
  if (choice.type === 'function') {
    const { name } = validateResponsesWire(ResponsesToolChoiceFunctionSchema, choice, path);
    return { toolChoice: { type: 'tool', name } };
  }
  if (choice.type === 'allowed_tools') {
    const allowed = validateResponsesWire(ResponsesToolChoiceAllowedSchema, choice, path);
    const names = allowed.tools.map((tool) => (tool.type === 'function' && typeof tool.name === 'string' ? tool.name : undefined));
    if (names.every((name): name is string => name !== undefined)) {
      return { toolChoice: { type: allowed.mode, allowedTools: names } };
    }
  }
  return { extension: { ...choice } };
}

/** Canonical ToolChoice → the wire form (`auto` when unset). */
export function encodeResponsesToolChoice(choice: ToolChoice | undefined): unknown {
  if (choice === undefined) return 'auto';
  switch (choice.type) {
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', name: choice.name };
    case 'auto':
    case 'required':
      return choice.allowedTools === undefined
        ? choice.type
        : {
            type: 'allowed_tools',
            mode: choice.type,
            tools: choice.allowedTools.map((name) => ({ type: 'function', name })),
          };
    default:
      return 'auto';
  }
}
