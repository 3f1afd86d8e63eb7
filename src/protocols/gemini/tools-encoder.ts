import { unsupportedFeatureError } from '../../canonical/index.js';
import type { CanonicalTool, FunctionTool, ToolChoice } from '../../canonical/index.js';
import type { GeminiTool, GeminiToolConfig } from './upstream-schema.js';

/** The Gemini function name of a (possibly namespaced) function: `namespace.name` (Gemini names allow `.`). */
export function encodeGeminiFunctionName(name: string, namespace?: string): string {
  return namespace === undefined ? name : `${namespace}.${name}`;
}

/** Gemini function name → canonical name and namespace, for the functions a request declared. */
export type GeminiFunctionNames = ReadonlyMap<string, { name: string; namespace?: string }>;

export function geminiFunctionNames(tools: readonly CanonicalTool[] | undefined): GeminiFunctionNames {
  const names = new Map<string, { name: string; namespace?: string }>();
  for (const tool of tools ?? []) {
    if (tool.type === 'function' && tool.namespace !== undefined) {
      names.set(encodeGeminiFunctionName(tool.name, tool.namespace), { name: tool.name, namespace: tool.namespace });
    }
  }
  return names;
}

const functionsOf = (tools: readonly CanonicalTool[] | undefined): FunctionTool[] =>
  (tools ?? []).filter((tool): tool is FunctionTool => tool.type === 'function');

/**
 * Canonical tools → one `tools` entry holding every `functionDeclarations` item, with the JSON
 * Schema sent as-is in `parametersJsonSchema` (no-argument functions carry no schema). `strict`
 * has no Gemini switch and is left behind. Other protocols' provider-defined tools are a 400.
 */
export function encodeGeminiTools(tools: readonly CanonicalTool[] | undefined, model: string): GeminiTool[] | undefined {
  for (const tool of tools ?? []) {
    if (tool.type === 'provider-defined')
      throw unsupportedFeatureError(`the '${tool.kind}' tool`, model, { param: 'tools', reason: 'Google Gemini has no equivalent' });
  }
  const functions = functionsOf(tools);
  if (functions.length === 0) return undefined;
  return [
    {
      functionDeclarations: functions.map((tool) => ({
        name: encodeGeminiFunctionName(tool.name, tool.namespace),
        ...(tool.description === undefined ? {} : { description: tool.description }),
        ...(tool.parameters === undefined ? {} : { parametersJsonSchema: tool.parameters }),
      })),
    },
  ];
}

/** The Gemini names of the functions called `names` (a namespaced function answers to its bare name too). */
function wireNames(names: readonly string[], tools: readonly CanonicalTool[] | undefined): string[] {
  const functions = functionsOf(tools);
  return names.flatMap((name) => {
    const matches = functions.filter((tool) => tool.name === name || encodeGeminiFunctionName(tool.name, tool.namespace) === name);
    return matches.length === 0 ? [name] : matches.map((tool) => encodeGeminiFunctionName(tool.name, tool.namespace));
  });
}

/**
 * Tool choice → `toolConfig.functionCallingConfig`: auto → AUTO (VALIDATED when narrowed to a
 * subset, since AUTO takes no names), required → ANY, a named tool → ANY with that one name,
 * none → NONE. No choice (or no functions) leaves Gemini's default, AUTO.
 */
export function encodeGeminiToolConfig(
  choice: ToolChoice | undefined,
  tools: readonly CanonicalTool[] | undefined,
): GeminiToolConfig | undefined {
  if (choice === undefined || functionsOf(tools).length === 0) return undefined;
  switch (choice.type) {
    case 'none':
      return { functionCallingConfig: { mode: 'NONE' } };
    case 'tool':
      return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: wireNames([choice.name], tools) } };
    case 'auto':
    case 'required': {
      const mode = choice.type === 'required' ? 'ANY' : choice.allowedTools === undefined ? 'AUTO' : 'VALIDATED';
      return {
        functionCallingConfig: {
          mode,
          ...(choice.allowedTools === undefined ? {} : { allowedFunctionNames: wireNames(choice.allowedTools, tools) }),
        },
      };
    }
  }
}
