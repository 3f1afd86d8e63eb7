import {
  GatewayError,
  type CanonicalRequest,
  type ReasoningConfig,
  type ResponseFormat,
  type SamplingOptions,
} from '../../canonical/index.js';
import { misdirectedBodyError } from '../misdirected-body.js';
import { decodeMessagesConversation, decodeMessagesSystem } from './conversation.js';
import { decodePlainMessagesRequest } from './request-fast-path.js';
import { describeRawIssue, describeRequestIssue, misspeltFieldHint } from './request-error.js';
import { messagesFields } from './request-fields.js';
import { messagesRequestSchema, type MessagesOutputConfig, type MessagesRequest, type MessagesThinking } from './schema.js';
import { decodeMessagesTool, decodeMessagesToolChoice } from './tools.js';
import { pickUnknownFields } from '../unknown-fields.js';

/** Top-level fields with a canonical home; anything else is kept in `extensions.messages`. */
const mappedFields = [
  'model',
  'max_tokens',
  'messages',
  'system',
  'stream',
  'stop_sequences',
  'temperature',
  'top_p',
  'top_k',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'metadata',
] as const;

function decodeSampling(wire: MessagesRequest): SamplingOptions | undefined {
  const sampling: SamplingOptions = {};
  if (wire.temperature !== undefined) sampling.temperature = wire.temperature;
  if (wire.top_p !== undefined) sampling.topP = wire.top_p;
  if (wire.top_k !== undefined) sampling.topK = wire.top_k;
  return Object.keys(sampling).length === 0 ? undefined : sampling;
}

/** `thinking` → reasoning mode/budget/display. Types without a canonical mode (`between_tools`, newer ones) stay whole in extensions. */
type MessagesThinkingWithMode = Extract<MessagesThinking, { type: 'enabled' | 'adaptive' | 'disabled' }>;

function hasCanonicalMode(thinking: MessagesThinking): thinking is MessagesThinkingWithMode {
  return thinking.type === 'enabled' || thinking.type === 'adaptive' || thinking.type === 'disabled';
}

function decodeThinking(thinking: MessagesThinking, reasoning: ReasoningConfig): Record<string, unknown> | undefined {
  if (!hasCanonicalMode(thinking)) return { ...thinking };
  reasoning.mode = thinking.type;
  if (thinking.type === 'enabled') reasoning.budgetTokens = thinking.budget_tokens;
  if (thinking.type !== 'disabled' && thinking.display !== undefined && thinking.display !== null) {
    reasoning.display = thinking.display;
  }
  return pickUnknownFields(thinking, ['type', 'budget_tokens', 'display']);
}

/** `output_config.effort` → reasoning effort; `output_config.format` (json_schema) → responseFormat. */
function decodeOutputConfig(config: MessagesOutputConfig, reasoning: ReasoningConfig, request: CanonicalRequest) {
  if (config.effort !== undefined && config.effort !== null) reasoning.effort = config.effort;
  const rest = pickUnknownFields(config, ['effort', 'format']);
  if (config.format === undefined || config.format === null) return rest;
  const format: ResponseFormat = { type: 'json-schema', schema: config.format.schema };
  request.responseFormat = format;
  const formatRest = pickUnknownFields(config.format, ['type', 'schema']);
  return formatRest === undefined ? rest : { ...rest, format: formatRest };
}

function parseBody(body: unknown): MessagesRequest {
  // Parsed without options first: zod's compiled fast path is skipped when a parse is given an
  // error map, which made every valid request three times slower. Only a bad body is parsed again.
  const parsed = messagesRequestSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const misdirected = misdirectedBodyError(body, 'messages');
  if (misdirected !== undefined) throw misdirected;
  const described = messagesRequestSchema.safeParse(body, { error: describeRawIssue });
  if (described.success) return described.data;
  const { param, message } = describeRequestIssue(described.error.issues);
  const hint = misspeltFieldHint(body, param, messagesFields.known);
  throw new GatewayError({ code: 'INVALID_REQUEST_BODY', param, message: `${message}${hint}` });
}

/**
 * Anthropic Messages request body → canonical request. Throws GatewayError
 * (`invalid_request`, `INVALID_REQUEST_BODY`, `param` = wire path) on a malformed body.
 */
export function decodeMessagesRequest(body: unknown): CanonicalRequest {
  return decodePlainMessagesRequest(body) ?? decodeMessagesRequestBySchema(body);
}

/** The full decoder: every request `decodePlainMessagesRequest` does not recognise. Exported for its property test. */
export function decodeMessagesRequestBySchema(body: unknown): CanonicalRequest {
  const wire = parseBody(body);
  const request: CanonicalRequest = {
    model: wire.model,
    messages: decodeMessagesConversation(wire.messages),
    maxOutputTokens: wire.max_tokens,
    stream: wire.stream === true,
  };
  const extensions: Record<string, unknown> = pickUnknownFields(wire, mappedFields) ?? {};
  if (wire.system !== undefined) request.system = decodeMessagesSystem(wire.system);
  if (wire.stop_sequences !== undefined) request.stopSequences = wire.stop_sequences;
  const sampling = decodeSampling(wire);
  if (sampling !== undefined) request.sampling = sampling;
  if (wire.tools !== undefined) request.tools = wire.tools.map(decodeMessagesTool);
  if (wire.tool_choice !== undefined) {
    const { toolChoice, parallelToolCalls, unmapped } = decodeMessagesToolChoice(wire.tool_choice);
    request.toolChoice = toolChoice;
    if (parallelToolCalls !== undefined) request.parallelToolCalls = parallelToolCalls;
    if (unmapped !== undefined) extensions.tool_choice = unmapped;
  }
  const reasoning: ReasoningConfig = {};
  const thinkingRest = wire.thinking === undefined ? undefined : decodeThinking(wire.thinking, reasoning);
  if (thinkingRest !== undefined) extensions.thinking = thinkingRest;
  const outputRest = wire.output_config === undefined ? undefined : decodeOutputConfig(wire.output_config, reasoning, request);
  if (outputRest !== undefined) extensions.output_config = outputRest;
  if (Object.keys(reasoning).length > 0) request.reasoning = reasoning;
  if (wire.metadata !== undefined) {
    if (typeof wire.metadata.user_id === 'string') request.metadata = { userId: wire.metadata.user_id };
    const metadataRest = pickUnknownFields(wire.metadata, ['user_id']);
    if (metadataRest !== undefined) extensions.metadata = metadataRest;
  }
  if (Object.keys(extensions).length > 0) request.extensions = { messages: extensions };
  return request;
}
