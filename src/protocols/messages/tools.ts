import type { CanonicalTool, FunctionTool, ToolChoice } from '../../canonical/index.js';
import type { MessagesCustomTool, MessagesTool, MessagesToolChoice } from './schema.js';
import { pickUnknownFields } from '../unknown-fields.js';
import { messagesExtensions } from './extensions.js';

function isCustomTool(tool: MessagesTool): tool is MessagesCustomTool {
  return tool.type === undefined || tool.type === null || tool.type === 'custom';
}

/**
 * Custom tools → FunctionTool (`input_schema` → `parameters`; `cache_control`, `defer_loading`,
 * `eager_input_streaming`, … in extensions). Versioned Anthropic tools (`web_search_20250305`,
 * `bash_20250124`, …) → ProviderDefinedTool, kept verbatim.
 */
export function decodeMessagesTool(tool: MessagesTool): CanonicalTool {
  if (!isCustomTool(tool)) {
    return { type: 'provider-defined', protocol: 'messages', kind: tool.type, name: tool.name, definition: { ...tool } };
  }
  const decoded: FunctionTool = { type: 'function', name: tool.name, parameters: tool.input_schema };
  if (tool.description !== undefined) decoded.description = tool.description;
  if (tool.strict !== undefined) decoded.strict = tool.strict;
  const extensions = messagesExtensions(pickUnknownFields(tool, ['name', 'description', 'input_schema', 'strict']));
  if (extensions !== undefined) decoded.extensions = extensions;
  return decoded;
}

export interface DecodedMessagesToolChoice {
  toolChoice: ToolChoice;
  parallelToolCalls: boolean | undefined;
  /** Fields of `tool_choice` with no canonical home. */
  unmapped: Record<string, unknown> | undefined;
}

/** `tool_choice` → canonical choice; `disable_parallel_tool_use` → `parallelToolCalls` (inverted). */
export function decodeMessagesToolChoice(choice: MessagesToolChoice): DecodedMessagesToolChoice {
  const unmapped = pickUnknownFields(choice, ['type', 'name', 'disable_parallel_tool_use']);
  switch (choice.type) {
    case 'none':
      return { toolChoice: { type: 'none' }, parallelToolCalls: undefined, unmapped };
    case 'auto':
    case 'any':
    case 'tool': {
      const toolChoice: ToolChoice =
        choice.type === 'auto' ? { type: 'auto' } : choice.type === 'any' ? { type: 'required' } : { type: 'tool', name: choice.name };
      const disabled = choice.disable_parallel_tool_use;
      return { toolChoice, parallelToolCalls: disabled === undefined ? undefined : !disabled, unmapped };
    }
  }
}
