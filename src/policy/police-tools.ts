import type { CanonicalRequest, CanonicalTool, ProtocolName } from '../canonical/index.js';
import { actionOf, type CompiledRequestPolicy } from './compiled-request-policy.js';
import { hostedToolFamily } from '../canonical/index.js';
import { policyRefusalError } from './policy-errors.js';

/**
 * The request without the hosted tools the policy strips; throws for one it refuses, or for a tool
 * choice that forces a stripped tool (an answer without it would not be what was asked). When no
 * tool is left, the tool choice and `parallel_tool_calls` go too. Returns `request` itself when nothing changes.
 */
export function policeTools(policy: CompiledRequestPolicy, request: CanonicalRequest, protocol: ProtocolName): CanonicalRequest {
  const tools = request.tools;
  if (tools === undefined || policy.tools.allowsAll) return request;
  let stripped: Stripped | undefined;
  let kept: CanonicalTool[] | undefined;
  for (let index = 0; index < tools.length; index += 1) {
    const tool = tools[index]!;
    if (tool.type !== 'provider-defined') {
      kept?.push(tool);
      continue;
    }
    const family = hostedToolFamily(tool.kind);
    const action = actionOf(policy.tools, family);
    if (action === 'refuse') throw policyRefusalError({ kind: 'tool', name: tool.kind, family });
    if (action === 'allow') {
      kept?.push(tool);
      continue;
    }
    kept ??= tools.slice(0, index);
    stripped ??= { families: new Set(), names: new Set() };
    stripped.families.add(family);
    if (tool.name !== undefined) stripped.names.add(tool.name);
  }
  if (kept === undefined || stripped === undefined) return request;
  checkToolChoice(request, protocol, stripped);
  if (kept.length > 0) return { ...request, tools: kept };
  const { tools: _tools, toolChoice: _choice, parallelToolCalls: _parallel, ...rest } = request;
  return rest;
}

/** What was stripped: hosted tool families, and the names the tools had (Anthropic server tools are named). */
interface Stripped {
  readonly families: Set<string>;
  readonly names: Set<string>;
}

/** Refuses a tool choice that names a stripped tool (canonical, or a Responses wire choice kept as an extension). */
function checkToolChoice(request: CanonicalRequest, protocol: ProtocolName, stripped: Stripped): void {
  const choice = request.toolChoice;
  if (choice?.type === 'tool' && stripped.names.has(choice.name)) {
    throw policyRefusalError({ kind: 'tool-choice', name: choice.name, family: hostedToolFamily(choice.name) });
  }
  const wire = request.extensions?.[protocol]?.tool_choice;
  if (typeof wire !== 'object' || wire === null) return;
  const { type, tools } = wire as { type?: unknown; tools?: unknown };
  const named = [type, ...(Array.isArray(tools) ? tools.map((tool) => (tool as { type?: unknown } | null)?.type) : [])];
  for (const kind of named) {
    if (typeof kind === 'string' && stripped.families.has(hostedToolFamily(kind))) {
      throw policyRefusalError({ kind: 'tool-choice', name: kind, family: hostedToolFamily(kind) });
    }
  }
}
