import { GatewayError, type AssistantContentPart, type CanonicalResponse, type FinishReason } from '../../canonical/index.js';
import { messagesContentBlockSchema, type MessagesContentBlock } from './content-schema.js';
import { decodeMessagesAssistantBlock } from './content.js';
import { decodeMessagesFinishReason } from './finish-reason.js';
import { pickUnknownAnswerFields } from '../unknown-fields.js';
import { parseMessagesStreamError } from './upstream-error.js';
import { isPlainMessagesAnswerBlock, isPlainMessagesUpstreamMessage } from './upstream-fast-path.js';
import { messagesUpstreamMessageSchema, type MessagesUpstreamBlock, type MessagesUpstreamMessage } from './upstream-schema.js';
import { decodeMessagesUsage } from './usage.js';

/** The block as the content-block schema reads it, undefined when it cannot; text, thinking and tool use are recognised without it. */
function readAnswerBlock(block: MessagesUpstreamBlock): MessagesContentBlock | undefined {
  if (isPlainMessagesAnswerBlock(block)) return block;
  const parsed = messagesContentBlockSchema.safeParse(block);
  return parsed.success ? parsed.data : undefined;
}

/**
 * One answer block → a canonical part: text, thinking (signature kept) / redacted_thinking,
 * tool_use (input → JSON text); server-tool blocks and types this codec does not know, or a
 * block it cannot read, are kept verbatim as Anthropic provider-defined parts.
 */
export function decodeMessagesResponseBlock(block: MessagesUpstreamBlock): AssistantContentPart {
  const known = readAnswerBlock(block);
  if (known !== undefined) return decodeMessagesAssistantBlock(known);
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

/** The answer as the schema reads it; the common shapes are recognised without it (upstream-fast-path.ts). */
function parseMessage(body: unknown): MessagesUpstreamMessage {
  if (isPlainMessagesUpstreamMessage(body)) return body;
  const parsed = messagesUpstreamMessageSchema.safeParse(body);
  if (!parsed.success) throw invalidResponse(parsed.error);
  return parsed.data;
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
  const wire = parseMessage(body);
  if (!Array.isArray(wire.content)) throw invalidResponse(body);
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
