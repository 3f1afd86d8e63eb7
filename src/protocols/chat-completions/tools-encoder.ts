import { unsupportedFeatureError } from '../../canonical/index.js';
import type { CanonicalRequest, CanonicalTool, ToolChoice } from '../../canonical/index.js';
import type { ChatDialect, ChatToolChoiceForm } from './dialect.js';
import { mergeChatFields, readChatExtensionFields, readNestedFields } from './extension-fields.js';

/** The tool fields of a Chat request body. */
export interface ChatWireToolFields {
  tools?: Record<string, unknown>[];
  tool_choice?: unknown;
  parallel_tool_calls?: boolean;
}

function encodeTool(tool: CanonicalTool, model: string, index: number): Record<string, unknown> {
  const param = `tools[${index}]`;
  if (tool.type === 'provider-defined') {
    if (tool.protocol !== 'chat') {
      throw unsupportedFeatureError(`the '${tool.kind}' tool (${tool.protocol} only)`, model, { param });
    }
    return { ...tool.definition, type: tool.kind };
  }
  if (tool.namespace !== undefined) {
    throw unsupportedFeatureError(`namespaced tools ('${tool.namespace}')`, model, { param });
  }
  const fields = readChatExtensionFields(tool);
  const fn = mergeChatFields(
    {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      ...(tool.parameters === undefined ? {} : { parameters: tool.parameters }),
      ...(tool.strict === undefined ? {} : { strict: tool.strict }),
    },
    readNestedFields(fields, 'function'),
  );
  return mergeChatFields({ type: 'function', function: fn }, fields);
}

/** `{type:"function", function:{name}}`, or `custom` when the named tool is a custom (grammar) tool. */
function namedChoice(name: string, tools: readonly CanonicalTool[]): Record<string, unknown> {
  const custom = tools.some((tool) => tool.type === 'provider-defined' && tool.kind === 'custom' && tool.name === name);
  return custom ? { type: 'custom', custom: { name } } : { type: 'function', function: { name } };
}

function formOf(choice: ToolChoice): ChatToolChoiceForm {
  if (choice.type === 'tool') return 'named';
  if (choice.type !== 'none' && choice.allowedTools !== undefined) return 'allowed_tools';
  return choice.type;
}

function encodeChoice(choice: ToolChoice, tools: readonly CanonicalTool[], dialect: ChatDialect): unknown {
  switch (choice.type) {
    case 'none':
      return 'none';
    case 'tool':
      return namedChoice(choice.name, tools);
    case 'auto':
    case 'required': {
      const word = choice.type === 'required' ? dialect.requiredToolChoice : 'auto';
      if (choice.allowedTools === undefined) return word;
      const allowed = choice.allowedTools.map((name) => namedChoice(name, tools));
      return { type: 'allowed_tools', allowed_tools: { mode: choice.type, tools: allowed } };
    }
  }
}

/**
 * `tools`, `tool_choice` and `parallel_tool_calls` for the dialect. Function tools keep their
 * passthrough fields; Chat provider-defined tools (`custom`, …) go verbatim, other protocols'
 * are refused. A `none` choice the upstream ignores leaves the tools out (same effect); an
 * `auto` it ignores is left out (its default); any other choice it cannot honour is a 400.
 */
export function encodeChatToolFields(request: CanonicalRequest, dialect: ChatDialect): ChatWireToolFields {
  const tools = request.tools ?? [];
  const model = request.model;
  const { toolChoice, parallelToolCalls } = request;
  if (tools.length === 0) return {};
  const wire: ChatWireToolFields = { tools: tools.map((tool, index) => encodeTool(tool, model, index)) };
  if (toolChoice !== undefined) {
    const form = formOf(toolChoice);
    if (dialect.toolChoices.includes(form)) wire.tool_choice = encodeChoice(toolChoice, tools, dialect);
    else if (form === 'none') return {};
    else if (form !== 'auto') {
      throw unsupportedFeatureError(`tool_choice '${form}'`, model, { param: 'tool_choice' });
    }
  }
  if (parallelToolCalls !== undefined) {
    if (dialect.parallelToolCalls) wire.parallel_tool_calls = parallelToolCalls;
    else if (!parallelToolCalls) {
      throw unsupportedFeatureError('turning parallel tool calls off', model, { param: 'parallel_tool_calls' });
    }
  }
  return wire;
}
