import { unsupportedFeatureError } from '../../canonical/index.js';
import type { CanonicalRequest, CanonicalTool, ReasoningConfig } from '../../canonical/index.js';
import { readResponsesExtensions } from './extensions.js';
import { encodeResponsesInput } from './input-encoder.js';
import { encodeResponsesToolChoice } from './tool-choice.js';
import { encodeOpenAISafetyIdentifier } from '../openai-safety-identifier.js';
import { encodeResponsesTextFormat } from './response-object.js';
import { encodeResponsesTools } from './tools.js';

export interface ResponsesRequestEncodeOptions {
  /** Ask for an SSE stream. */
  stream: boolean;
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** Refuses what the Responses API has no field for: stop sequences, top-k, penalties, seed. */
function checkCarriable(request: CanonicalRequest): void {
  const { model, sampling } = request;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) {
    throw unsupportedFeatureError('stop sequences', model, { param: 'stop', reason: 'the OpenAI Responses API has no equivalent' });
  }
  if (sampling?.topK !== undefined)
    throw unsupportedFeatureError('top_k sampling', model, { param: 'top_k', reason: 'the OpenAI Responses API has no equivalent' });
  if (sampling?.presencePenalty !== undefined && sampling.presencePenalty !== 0) {
    throw unsupportedFeatureError('presence_penalty', model, {
      param: 'presence_penalty',
      reason: 'the OpenAI Responses API has no equivalent',
    });
  }
  if (sampling?.frequencyPenalty !== undefined && sampling.frequencyPenalty !== 0) {
    throw unsupportedFeatureError('frequency_penalty', model, {
      param: 'frequency_penalty',
      reason: 'the OpenAI Responses API has no equivalent',
    });
  }
  if (sampling?.seed !== undefined)
    throw unsupportedFeatureError('seed', model, { param: 'seed', reason: 'the OpenAI Responses API has no equivalent' });
}

/**
 * Functions keep `strict` as given. Unset is sent as `false`, because Responses would otherwise
 * treat them as strict — unless a Responses caller left it unset itself (its decoder records
 * `strict_unset`), which is passed on as it came.
 */
function withStrictDefault(tool: CanonicalTool): CanonicalTool {
  if (tool.type !== 'function' || tool.strict !== undefined) return tool;
  const unsetByResponsesCaller = tool.extensions?.responses?.strict_unset === true;
  return unsetByResponsesCaller ? tool : { ...tool, strict: false };
}

function encodeTools(tools: readonly CanonicalTool[], model: string): Record<string, unknown>[] {
  for (const tool of tools) {
    if (tool.type === 'provider-defined' && tool.protocol !== 'responses') {
      throw unsupportedFeatureError(`the '${tool.kind}' tool (it belongs to the ${tool.protocol} protocol)`, model, {
        param: 'tools',
        reason: 'the OpenAI Responses API has no equivalent',
      });
    }
  }
  return encodeResponsesTools(tools.map(withStrictDefault));
}

/** An Anthropic-style thinking budget as the nearest effort (LiteLLM's budgets: low 1024, medium 2048, high 4096). */
function effortOfBudget(budget: number): string {
  if (budget < 2048) return 'low';
  if (budget < 4096) return 'medium';
  return 'high';
}

/** Whether the request asks the model to reason (so its encrypted reasoning should come back). */
function wantsReasoning(reasoning: ReasoningConfig | undefined): boolean {
  return reasoning !== undefined && reasoning.mode !== 'disabled' && reasoning.effort !== 'none';
}

function encodeReasoning(reasoning: ReasoningConfig, extension: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...extension };
  if (reasoning.effort !== undefined) out.effort = reasoning.effort;
  else if (reasoning.mode === 'disabled') out.effort = 'none';
  else if (reasoning.budgetTokens !== undefined) out.effort = effortOfBudget(reasoning.budgetTokens);
  // Anthropic-style thinking (mode set) expects to see its thoughts: ask for a summary unless they are hidden.
  const explicitMode = reasoning.mode === 'enabled' || reasoning.mode === 'adaptive';
  const summary = reasoning.summary ?? (explicitMode && reasoning.display !== 'omitted' ? 'auto' : undefined);
  if (summary !== undefined) out.summary = summary;
  return out;
}

/** Chat hints with the same meaning on Responses (a Chat client routed here keeps them). */
function chatHints(request: CanonicalRequest): { top: Record<string, unknown>; verbosity?: unknown } {
  const chat = request.extensions?.chat ?? {};
  const top: Record<string, unknown> = {};
  for (const key of ['prompt_cache_key', 'prompt_cache_retention', 'service_tier']) {
    if (chat[key] !== undefined && chat[key] !== null) top[key] = chat[key];
  }
  return chat.verbosity == null ? { top } : { top, verbosity: chat.verbosity };
}

/**
 * Canonical request → the body of `POST /v1/responses`.
 *
 * - `store: false` unless the caller's Responses request set `store`: the gateway keeps no state.
 * - system → `instructions` (or system/developer input items where they came as items).
 * - reasoning → `reasoning.effort`/`summary`, and `include: ["reasoning.encrypted_content"]` so a
 *   later turn can replay the reasoning without stored state.
 * - Fields of a Responses caller without a canonical home (`previous_response_id`, `conversation`,
 *   `prompt`, `include`, `truncation`, unknown fields…) go back on the body as they came.
 * @throws GatewayError 400 `UNSUPPORTED_FEATURE` for stop sequences, top_k, penalties, seed and
 *   other protocols' provider-defined tools or content.
 */
export function encodeResponsesRequest(request: CanonicalRequest, options: ResponsesRequestEncodeOptions): Record<string, unknown> {
  checkCarriable(request);
  const {
    text: textExtension,
    reasoning: reasoningExtension,
    tool_choice: toolChoiceExtension,
    include: includeExtension,
    store,
    ...passthrough
  } = readResponsesExtensions(request);
  const { instructions, input } = encodeResponsesInput(request);
  const hints = chatHints(request);

  const body: Record<string, unknown> = { model: request.model };
  if (instructions !== undefined) body.instructions = instructions;
  body.input = input;
  if (request.tools !== undefined && request.tools.length > 0) body.tools = encodeTools(request.tools, request.model);
  if (toolChoiceExtension !== undefined) body.tool_choice = toolChoiceExtension;
  else if (request.toolChoice !== undefined) body.tool_choice = encodeResponsesToolChoice(request.toolChoice);
  if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  if (request.sampling?.temperature !== undefined) body.temperature = request.sampling.temperature;
  if (request.sampling?.topP !== undefined) body.top_p = request.sampling.topP;

  const text: Record<string, unknown> = textExtension === undefined ? {} : { ...record(textExtension) };
  if (hints.verbosity !== undefined && text.verbosity === undefined) text.verbosity = hints.verbosity;
  if (request.responseFormat !== undefined) text.format = encodeResponsesTextFormat(request.responseFormat);
  if (Object.keys(text).length > 0) body.text = text;

  if (request.reasoning !== undefined || reasoningExtension !== undefined) {
    body.reasoning = encodeReasoning(request.reasoning ?? {}, record(reasoningExtension));
  }
  const include = Array.isArray(includeExtension) ? includeExtension.filter((entry) => typeof entry === 'string') : [];
  if (wantsReasoning(request.reasoning) && !include.includes('reasoning.encrypted_content')) {
    include.push('reasoning.encrypted_content');
  }
  if (include.length > 0) body.include = include;

  const userId = request.metadata?.userId;
  if (userId !== undefined && passthrough.user !== userId) body.safety_identifier = encodeOpenAISafetyIdentifier(userId);
  if (request.metadata?.tags !== undefined) body.metadata = request.metadata.tags;

  Object.assign(body, hints.top, passthrough);
  body.store = typeof store === 'boolean' ? store : false;
  if (options.stream) body.stream = true;
  else delete body.stream_options;
  return body;
}
