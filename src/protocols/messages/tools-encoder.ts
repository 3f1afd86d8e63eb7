import { unsupportedFeatureError } from '../../canonical/index.js';
import type { CanonicalTool, FunctionTool, JsonSchema, ToolChoice } from '../../canonical/index.js';
import { messagesWireFields } from './content-encoder.js';

/** `input_schema` must be an object schema; no parameters means no properties. */
function encodeInputSchema(parameters: JsonSchema | undefined): JsonSchema {
  if (parameters === undefined) return { type: 'object', properties: {} };
  return 'type' in parameters ? parameters : { type: 'object', ...parameters };
}

function encodeFunctionTool(tool: FunctionTool, model: string): Record<string, unknown> {
  if (tool.namespace !== undefined)
    throw unsupportedFeatureError(`namespaced tools ('${tool.namespace}.${tool.name}')`, model, { param: 'tools' });
  const wire: Record<string, unknown> = { ...messagesWireFields(tool.extensions), name: tool.name };
  if (tool.description !== undefined) wire.description = tool.description;
  wire.input_schema = encodeInputSchema(tool.parameters);
  if (tool.strict !== undefined) wire.strict = tool.strict;
  return wire;
}

/** Whether `tool` survives an `allowedTools` narrowing (function name, or a provider tool's name or type). */
function isAllowed(tool: CanonicalTool, allowed: readonly string[] | undefined): boolean {
  if (allowed === undefined) return true;
  return tool.type === 'function' ? allowed.includes(tool.name) : allowed.includes(tool.name ?? tool.kind) || allowed.includes(tool.kind);
}

/**
 * Canonical tools → Anthropic `tools`: functions become custom tools (`parameters` →
 * `input_schema`, extension fields such as `cache_control` put back); Anthropic's own
 * versioned tools go verbatim; other protocols' hosted tools are a 400. A choice narrowed to
 * `allowedTools` sends only those tools.
 */
export function encodeMessagesTools(
  tools: readonly CanonicalTool[],
  choice: ToolChoice | undefined,
  model: string,
): Array<Record<string, unknown>> {
  const allowed = choice !== undefined && 'allowedTools' in choice ? choice.allowedTools : undefined;
  return tools
    .filter((tool) => isAllowed(tool, allowed))
    .map((tool) => {
      if (tool.type === 'function') return encodeFunctionTool(tool, model);
      if (tool.protocol !== 'messages')
        throw unsupportedFeatureError(`the '${tool.kind}' tool (from the ${tool.protocol} protocol)`, model, { param: 'tools' });
      return { ...tool.definition };
    });
}

export interface MessagesToolChoiceInput {
  choice: ToolChoice | undefined;
  parallelToolCalls: boolean | undefined;
  /** Thinking is on: Anthropic refuses a forced tool then, so `any`/`tool` become `auto`. */
  thinking: boolean;
  /** `tool_choice` fields a Messages client sent without a canonical home. */
  extra: Record<string, unknown> | undefined;
  /** Whether any tool is sent. */
  hasTools: boolean;
}

/**
 * Canonical choice → `tool_choice`: auto → `auto`, required → `any`, a named tool → `tool`,
 * none → `none`. `parallelToolCalls: false` → `disable_parallel_tool_use: true` (on an `auto`
 * choice when none was given). Undefined when nothing needs saying.
 */
export function encodeMessagesToolChoice(input: MessagesToolChoiceInput): Record<string, unknown> | undefined {
  const { choice, parallelToolCalls, thinking } = input;
  if (!input.hasTools && (choice === undefined || choice.type === 'auto' || choice.type === 'none')) return undefined;
  if (choice === undefined && parallelToolCalls !== false && input.extra === undefined) return undefined;
  let wire: Record<string, unknown>;
  switch (choice?.type) {
    case undefined:
    case 'auto':
      wire = { type: 'auto' };
      break;
    case 'none':
      return { ...input.extra, type: 'none' };
    case 'required':
      wire = thinking ? { type: 'auto' } : { type: 'any' };
      break;
    case 'tool':
      wire = thinking ? { type: 'auto' } : { type: 'tool', name: choice.name };
      break;
  }
  if (parallelToolCalls !== undefined) wire.disable_parallel_tool_use = !parallelToolCalls;
  return { ...input.extra, ...wire };
}
