import type { CanonicalRequest, CanonicalTool, Extensions, ProtocolName } from '../canonical/index.js';
import { hostedToolFamily, isHostedTool, unsupportedFeatureError } from '../canonical/index.js';
import type { ResolvedModel } from './resolve-model.js';

/** A request fitted to its model, and the name of each hint left out on the way. */
export interface Adapted {
  readonly request: CanonicalRequest;
  /** e.g. `['reasoning', 'tools.web_search', 'cache']`; empty when nothing was left out. */
  readonly adaptations: readonly string[];
}

const none: readonly string[] = [];

/** Extension fields that carry what is left of a reasoning request (leftover sub-fields, unknown thinking types). */
const reasoningFields = ['reasoning', 'thinking'] as const;
/** Top-level hint fields of each protocol, by the adaptation that names them when the provider does not get them. */
const fieldHints: Readonly<Record<string, string>> = {
  prompt_cache_key: 'cache',
  prompt_cache_retention: 'cache',
  prompt_cache_options: 'cache',
  cache_control: 'cache',
  service_tier: 'service_tier',
  speed: 'speed',
};
/** Chat hints the Responses encoder carries over (same meaning on both OpenAI APIs). */
const chatHintsOnResponses: ReadonlySet<string> = new Set(['prompt_cache_key', 'prompt_cache_retention', 'service_tier']);

function asksForReasoning(request: CanonicalRequest, inbound: ProtocolName): boolean {
  const reasoning = request.reasoning;
  if (reasoning !== undefined && reasoning.mode !== 'disabled' && reasoning.effort !== 'none') return true;
  const fields = request.extensions?.[inbound];
  return fields !== undefined && reasoningFields.some((field) => fields[field] != null);
}

/** The request without reasoning: the canonical config, its leftovers, and Responses' request for encrypted reasoning. */
function withoutReasoning(request: CanonicalRequest, inbound: ProtocolName): CanonicalRequest {
  const { reasoning: _reasoning, ...rest } = request;
  const fields = request.extensions?.[inbound];
  if (fields === undefined) return rest;
  const kept: Record<string, unknown> = { ...fields };
  for (const field of reasoningFields) delete kept[field];
  if (Array.isArray(kept.include)) {
    const include = kept.include.filter((entry) => entry !== 'reasoning.encrypted_content');
    if (include.length > 0) kept.include = include;
    else delete kept.include;
  }
  const extensions: Extensions = { ...request.extensions, [inbound]: kept };
  return { ...rest, extensions };
}

/** Whether the model runs this tool; `drop` says whether one it cannot run is left out rather than refused. */
function toolOutcome(tool: CanonicalTool, model: ResolvedModel): 'keep' | 'drop' {
  if (tool.type !== 'provider-defined' || model.capabilities.providerTools.includes(tool.protocol)) return 'keep';
  if (model.omitHostedTools) return 'drop';
  return model.adapt && isHostedTool(tool.kind) ? 'drop' : 'keep';
}

/**
 * The request without the hosted tools the model cannot run, and their names. A tool choice that
 * forces a dropped tool (or requires a call when only dropped tools were offered) would change the
 * answer: a 400 naming the tool, as without adapting.
 */
function withoutUnrunnableTools(request: CanonicalRequest, model: ResolvedModel, inbound: ProtocolName, names: string[]): CanonicalRequest {
  const tools = request.tools;
  if (tools === undefined || !tools.some((tool) => toolOutcome(tool, model) === 'drop')) return request;
  const kept: CanonicalTool[] = [];
  const dropped: { kind: string; name: string | undefined; family: string }[] = [];
  for (const tool of tools) {
    if (toolOutcome(tool, model) === 'keep') kept.push(tool);
    else if (tool.type === 'provider-defined') dropped.push({ kind: tool.kind, name: tool.name, family: hostedToolFamily(tool.kind) });
  }
  const forced = forcedTool(request, inbound, dropped, kept.length === 0);
  if (forced !== undefined) throw unsupportedFeatureError(`the '${forced}' tool`, model.id, { param: 'tool_choice' });
  for (const { family } of dropped) if (!names.includes(`tools.${family}`)) names.push(`tools.${family}`);
  if (kept.length > 0) return { ...request, tools: kept };
  const { tools: _tools, toolChoice: _choice, parallelToolCalls: _parallel, ...rest } = request;
  const fields = rest.extensions?.[inbound];
  if (fields?.tool_choice === undefined) return rest;
  const { tool_choice: _wireChoice, ...otherFields } = fields;
  return { ...rest, extensions: { ...rest.extensions, [inbound]: otherFields } };
}

/** The kind of a dropped tool the request's tool choice insists on, if any. */
function forcedTool(
  request: CanonicalRequest,
  inbound: ProtocolName,
  dropped: readonly { kind: string; name: string | undefined; family: string }[],
  noneLeft: boolean,
): string | undefined {
  const choice = request.toolChoice;
  if (choice?.type === 'required' && noneLeft) return dropped[0]?.kind;
  if (choice?.type === 'tool') {
    const match = dropped.find((tool) => tool.name === choice.name || tool.kind === choice.name);
    if (match !== undefined) return match.kind;
  }
  const wire = request.extensions?.[inbound]?.tool_choice;
  if (typeof wire === 'string') return wire === 'required' && noneLeft ? dropped[0]?.kind : undefined;
  if (typeof wire !== 'object' || wire === null) return undefined;
  const { type, tools } = wire as { type?: unknown; tools?: unknown };
  const named = [type, ...(Array.isArray(tools) ? tools.map((tool) => (tool as { type?: unknown } | null)?.type) : [])];
  for (const kind of named) {
    if (typeof kind !== 'string') continue;
    const match = dropped.find((tool) => tool.family === hostedToolFamily(kind));
    if (match !== undefined) return match.kind;
  }
  return undefined;
}

function hasCacheControl(extensions: Extensions | undefined): boolean {
  return extensions?.messages?.cache_control != null;
}

/** Whether a Messages request marks any system block, content block or tool for caching. */
function marksCache(request: CanonicalRequest): boolean {
  if (request.system?.some((part) => hasCacheControl(part.extensions))) return true;
  if (request.tools?.some((tool) => tool.type === 'function' && hasCacheControl(tool.extensions))) return true;
  for (const message of request.messages) {
    for (const part of message.content) if ('extensions' in part && hasCacheControl(part.extensions)) return true;
  }
  return false;
}

/**
 * Names the hints of the caller's protocol that the provider's protocol has no field for, which
 * its encoder leaves behind: prompt caching, service tier, speed. Nothing is changed here.
 */
function hintsLeftBehind(request: CanonicalRequest, inbound: ProtocolName, upstream: ProtocolName | undefined, names: string[]): void {
  if (inbound === upstream) return;
  const fields = request.extensions?.[inbound];
  for (const key in fields) {
    const name = fieldHints[key];
    if (name === undefined || fields[key] == null) continue;
    if (inbound === 'chat' && upstream === 'responses' && chatHintsOnResponses.has(key)) continue;
    if (!names.includes(name)) names.push(name);
  }
  if (inbound === 'messages' && !names.includes('cache') && marksCache(request)) names.push('cache');
}

/**
 * The "adapt" policy: what a request only hints at but the model cannot do is left out, and named
 * — reasoning for a model without it, hosted tools it cannot run (Codex's `web_search`). Prompt
 * caching and service-tier hints the provider's protocol has no field for are named too (they are
 * left behind whatever `adapt` says). What would change the answer is left in, for
 * `checkCapabilities` to refuse. With `model.adapt` false only `hostedTools: 'omit'` drops anything.
 * Returns `request` itself and an empty list when there is nothing to do.
 */
export function adaptToModel(request: CanonicalRequest, model: ResolvedModel, inbound: ProtocolName): Adapted {
  let names: string[] | undefined;
  let adapted = request;
  if (adapted.tools !== undefined && (model.adapt || model.omitHostedTools)) {
    names = [];
    adapted = withoutUnrunnableTools(adapted, model, inbound, names);
  }
  if (model.adapt && !model.capabilities.reasoning) {
    // A config that turns reasoning off asks for nothing the model lacks: dropped, not named.
    const asked = asksForReasoning(adapted, inbound);
    if (asked || adapted.reasoning !== undefined) adapted = withoutReasoning(adapted, inbound);
    if (asked) (names ??= []).unshift('reasoning');
  }
  if (adapted.extensions !== undefined || inbound === 'messages') hintsLeftBehind(adapted, inbound, model.adapter.protocol, (names ??= []));
  return { request: adapted, adaptations: names === undefined || names.length === 0 ? none : names };
}
