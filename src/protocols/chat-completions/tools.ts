import type { CanonicalRequest, CanonicalTool, ToolChoice } from '../../canonical/index.js';
import { createChatFieldError } from './request-error.js';
import { isChatKnownTool, type ChatRequest, type ChatTool, type ChatToolChoice } from './schema.js';
import { pickUnknownFields } from '../unknown-fields.js';
import { withChatExtensions } from './extensions.js';

/** Marker on tools decoded from the deprecated `functions` field: the answer then uses `function_call`. */
const legacySource = 'functions';

function decodeTool(tool: ChatTool): CanonicalTool {
  if (!isChatKnownTool(tool)) {
    return { type: 'provider-defined', protocol: 'chat', kind: tool.type, definition: { ...tool } };
  }
  if (tool.type === 'custom') {
    const { name } = tool.custom;
    return { type: 'provider-defined', protocol: 'chat', kind: 'custom', name, definition: { ...tool } };
  }
  const { name, description, parameters, strict } = tool.function;
  const decoded = withChatExtensions(
    {
      type: 'function' as const,
      name,
      ...(description === undefined || description === null ? {} : { description }),
      ...(parameters === undefined || parameters === null ? {} : { parameters }),
      ...(strict === undefined || strict === null ? {} : { strict }),
    },
    pickUnknownFields(tool, ['type', 'function']),
  );
  const nested = pickUnknownFields(tool.function, ['name', 'description', 'parameters', 'strict']);
  return withChatExtensions(decoded, nested === undefined ? undefined : { function: nested });
}

/** `tools` (function, custom, any other type verbatim) followed by deprecated `functions`. */
export function decodeChatTools(body: ChatRequest): CanonicalTool[] | undefined {
  const tools = (body.tools ?? []).map(decodeTool);
  for (const definition of body.functions ?? []) {
    const tool = decodeTool({ type: 'function', function: definition });
    tools.push(withChatExtensions(tool, { source: legacySource }));
  }
  return tools.length === 0 ? undefined : tools;
}

function allowedToolName(tool: { type: string; [key: string]: unknown }, param: string): string {
  const inner = tool[tool.type];
  if (typeof inner === 'object' && inner !== null && 'name' in inner && typeof inner.name === 'string') {
    return inner.name;
  }
  throw createChatFieldError(param, `expected {"type": "${tool.type}", "${tool.type}": {"name": …}}`);
}

function decodeToolChoiceObject(choice: Exclude<ChatToolChoice, string>): ToolChoice {
  switch (choice.type) {
    case 'function':
      return { type: 'tool', name: choice.function.name };
    case 'custom':
      return { type: 'tool', name: choice.custom.name };
    case 'allowed_tools': {
      const { mode, tools } = choice.allowed_tools;
      const names = tools.map((tool, index) => allowedToolName(tool, `tool_choice.allowed_tools.tools[${index}]`));
      return { type: mode, allowedTools: names };
    }
  }
}

/** `tool_choice`, else the deprecated `function_call`. */
export function decodeChatToolChoice(body: ChatRequest): ToolChoice | undefined {
  const choice = body.tool_choice ?? undefined;
  if (choice !== undefined) return typeof choice === 'string' ? { type: choice } : decodeToolChoiceObject(choice);
  const legacy = body.function_call ?? undefined;
  if (legacy === undefined) return undefined;
  return typeof legacy === 'string' ? { type: legacy } : { type: 'tool', name: legacy.name };
}

/**
 * True when the caller declared its tools with the deprecated `functions` field only: the
 * answer must then carry `message.function_call` (one call) and finish reason `function_call`.
 */
export function isChatLegacyFunctionRequest(request: CanonicalRequest): boolean {
  const tools = request.tools ?? [];
  const isLegacy = (tool: CanonicalTool) => tool.type === 'function' && tool.extensions?.chat?.source === legacySource;
  return tools.length > 0 && tools.every(isLegacy);
}
