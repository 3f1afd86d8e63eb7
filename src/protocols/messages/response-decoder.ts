import { GatewayError, type AssistantContentPart, type CanonicalResponse, type FinishReason } from '../../canonical/index.js';
import { messagesContentBlockSchema } from './content-schema.js';
import { decodeMessagesAssistantBlock } from './content.js';
import { decodeMessagesFinishReason } from './finish-reason.js';
import { pickUnknownAnswerFields } from '../unknown-fields.js';
import { parseMessagesStreamError } from './upstream-error.js';
import { messagesUpstreamMessageSchema, type MessagesUpstreamBlock } from './upstream-schema.js';
import { decodeMessagesUsage } from './usage.js';

/**
 * One answer block → a canonical part: text, thinking (signature kept) / redacted_thinking,
 * tool_use (input → JSON text); server-tool blocks and types this codec does not know, or a
 * block it cannot read, are kept verbatim as Anthropic provider-defined parts.
 */
export function decodeMessagesResponseBlock(block: MessagesUpstreamBlock): AssistantContentPart {
  const parsed = messagesContentBlockSchema.safeParse(block);
  if (parsed.success) return decodeMessagesAssistantBlock(parsed.data);
  return { type: 'provider-defined', protocol: 'messages', kind: block.type, data: { ...block } };
}

/**
 * The finish reason, with tool calls winning over an end-of-turn word: an answer that calls a
 * client tool reports `tool-calls` unless it was cut short.
 */
export function decodeMessagesUpstreamFinish(stopReason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  const finishReason = decodeMessagesFinishReason(stopReason);
  if (!hasToolCalls || finishReason.unified === 'tool-calls' || finishReason.unified === 'length') return finishReason;
  return { ...finishReason, unified: 'tool-calls' };
}

function invalidResponse(cause: unknown): GatewayError {
  return new GatewayError({
    code: 'UPSTREAM_INVALID_RESPONSE',
    message: 'Anthropic answered with a body that is not a Messages response.',
    cause,
  });
}

const mappedFields = ['id', 'type', 'role', 'model', 'content', 'stop_reason', 'stop_sequence', 'usage'];

/**
 * Anthropic `Message` body → canonical response. Usage input becomes the total (input + cache
 * reads + cache writes); fields without a canonical home (`container`, `stop_details`, …) are
 * kept in `extensions.messages`. A 200 carrying an error body becomes that error.
 */
export function decodeMessagesResponse(body: unknown): CanonicalResponse {
  if (typeof body === 'object' && body !== null && (body as { type?: unknown }).type === 'error') {
    throw parseMessagesStreamError(body);
  }
  const parsed = messagesUpstreamMessageSchema.safeParse(body);
  if (!parsed.success || !Array.isArray(parsed.data.content)) throw invalidResponse(parsed.success ? body : parsed.error);
  const wire = parsed.data;
  const content = (wire.content ?? []).map(decodeMessagesResponseBlock);
  const response: CanonicalResponse = {
    id: wire.id ?? '',
    model: wire.model ?? '',
    content,
    finishReason: decodeMessagesUpstreamFinish(
      wire.stop_reason,
      content.some((part) => part.type === 'tool-call'),
    ),
    usage: decodeMessagesUsage(wire.usage ?? {}),
  };
  if (typeof wire.stop_sequence === 'string') response.stopSequence = wire.stop_sequence;
  const rest = pickUnknownAnswerFields(wire, mappedFields);
  if (rest !== undefined) response.extensions = { messages: rest };
  return response;
}
