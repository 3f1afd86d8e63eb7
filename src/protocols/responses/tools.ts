import type { CanonicalTool, FunctionTool } from '../../canonical/index.js';
import { decodeResponsesExtensions, readResponsesExtensions } from './extensions.js';
import { ResponsesFunctionToolSchema, ResponsesNamespaceToolSchema, ResponsesToolEnvelopeSchema, type ResponsesTool } from './schema.js';
import { validateResponsesWire, type WirePath } from './validate-wire.js';

function decodeFunctionTool(tool: unknown, path: WirePath, namespace?: Record<string, unknown>): FunctionTool {
  const { type: _type, name, parameters, strict, description, ...rest } = validateResponsesWire(ResponsesFunctionToolSchema, tool, path);
  const nsName = namespace?.name;
  const { name: _nsName, ...namespaceFields } = namespace ?? {};
  return {
    type: 'function',
    name,
    ...(typeof description === 'string' ? { description } : {}),
    ...(parameters == null ? {} : { parameters }),
    ...(typeof strict === 'boolean' ? { strict } : {}),
    ...(typeof nsName === 'string' ? { namespace: nsName } : {}),
    ...decodeResponsesExtensions({
      ...rest,
      // Unset means OpenAI's own default; remembered so a Responses upstream gets it unset too.
      ...(typeof strict === 'boolean' ? {} : { strict_unset: true }),
      ...(namespace === undefined ? {} : { namespace_tool: namespaceFields }),
    }),
  };
}

function decodeOtherTool(tool: ResponsesTool, namespaceName?: string): CanonicalTool {
  const name = typeof tool.name === 'string' ? tool.name : undefined;
  return {
    type: 'provider-defined',
    protocol: 'responses',
    kind: tool.type,
    ...(name === undefined ? {} : { name }),
    definition: namespaceName === undefined ? { ...tool } : { ...tool, namespace: namespaceName },
  };
}

/**
 * `function` tools → FunctionTool; `namespace` tools (Codex) → their member functions with
 * `namespace` set (namespace description and other fields ride in each member's extensions);
 * `custom` and hosted tools → ProviderDefinedTool, verbatim.
 */
export function decodeResponsesTools(tools: readonly unknown[], path: WirePath): CanonicalTool[] {
  return tools.flatMap((tool, index): CanonicalTool[] => {
    const toolPath = [...path, index];
    const envelope = validateResponsesWire(ResponsesToolEnvelopeSchema, tool, toolPath);
    if (envelope.type === 'function') return [decodeFunctionTool(tool, toolPath)];
    if (envelope.type !== 'namespace') return [decodeOtherTool(envelope)];
    const { type: _type, tools: members, ...namespace } = validateResponsesWire(ResponsesNamespaceToolSchema, tool, toolPath);
    return members.map((member, memberIndex) =>
      member.type === 'function'
        ? decodeFunctionTool(member, [...toolPath, 'tools', memberIndex], namespace)
        : decodeOtherTool(member, namespace.name),
    );
  });
}

function encodeFunctionTool(tool: FunctionTool): Record<string, unknown> {
  const { namespace_tool: _namespaceTool, strict_unset: _strictUnset, ...rest } = readResponsesExtensions(tool);
  return {
    type: 'function',
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    parameters: tool.parameters ?? null,
    strict: tool.strict ?? null,
    ...rest,
  };
}

/** Canonical tools → wire tools; functions sharing a namespace are grouped back into one `namespace` tool. */
export function encodeResponsesTools(tools: readonly CanonicalTool[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const namespaces = new Map<string, Record<string, unknown>[]>();
  const memberOf = (name: string, fields: Record<string, unknown>): Record<string, unknown>[] => {
    let members = namespaces.get(name);
    if (members === undefined) {
      members = [];
      namespaces.set(name, members);
      out.push({ type: 'namespace', name, ...fields, tools: members });
    }
    return members;
  };
  for (const tool of tools) {
    if (tool.type === 'function') {
      if (tool.namespace === undefined) out.push(encodeFunctionTool(tool));
      else {
        const fields = readResponsesExtensions(tool).namespace_tool;
        const namespaceFields = typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>) : {};
        memberOf(tool.namespace, namespaceFields).push(encodeFunctionTool(tool));
      }
    } else if (tool.protocol === 'responses') {
      const { namespace, ...definition } = tool.definition;
      if (typeof namespace === 'string') memberOf(namespace, {}).push(definition);
      else out.push(tool.definition);
    }
  }
  return out;
}
