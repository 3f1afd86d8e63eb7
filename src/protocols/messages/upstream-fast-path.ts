import type { MessagesContentBlock } from './content-schema.js';
import type { MessagesUpstreamEvent, MessagesUpstreamMessage } from './upstream-schema.js';

/*
 * The lenient upstream schemas return, for a well-formed answer, a copy equal to their input. These
 * checks recognise the common well-formed shapes (a message, its text / thinking / tool-use blocks,
 * the stream's events) cheaply so the decoders can skip the schema for them; anything else — error
 * events, unknown event types, odd field types — still goes through the schema. A property test
 * holds them to that: whatever they accept, the schema parses to an equal value.
 */

type Json = Record<string, unknown>;

// An own `__proto__` key (JSON.parse makes one) is dropped by the schema's object copy, so such an
// object is not returned unchanged: leave it to the schema.
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !Object.hasOwn(value, '__proto__');
const isAbsent = (value: unknown): value is null | undefined => value === undefined || value === null;
const isOptionalString = (value: unknown) => isAbsent(value) || typeof value === 'string';
const isCount = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const isOptionalCount = (value: unknown) => isAbsent(value) || isCount(value);
/** A block as the upstream schemas read it: an object with a string `type`. */
const isTyped = (value: unknown): value is Json & { type: string } => isObject(value) && typeof value.type === 'string';

function isPlainUsage(value: unknown): boolean {
  if (isAbsent(value)) return true;
  if (!isObject(value)) return false;
  const details = value.output_tokens_details;
  return (
    isOptionalCount(value.input_tokens) &&
    isOptionalCount(value.output_tokens) &&
    isOptionalCount(value.cache_creation_input_tokens) &&
    isOptionalCount(value.cache_read_input_tokens) &&
    (isAbsent(details) || (isObject(details) && isOptionalCount(details.thinking_tokens)))
  );
}

/** A `Message` (an answer, or `message_start`'s) that the message schema would return unchanged. */
export function isPlainMessagesUpstreamMessage(value: unknown): value is MessagesUpstreamMessage {
  if (!isObject(value)) return false;
  if (!isOptionalString(value.id) || !isOptionalString(value.model)) return false;
  if (!isOptionalString(value.stop_reason) || !isOptionalString(value.stop_sequence) || !isPlainUsage(value.usage)) return false;
  const { content } = value;
  if (isAbsent(content)) return true;
  if (!Array.isArray(content)) return false;
  for (const block of content) if (!isTyped(block)) return false;
  return true;
}

/**
 * An answer block of the four kinds a model writes (text, thinking, redacted thinking, tool use)
 * that the content-block schema would return unchanged; server-tool blocks, `cache_control`,
 * citations and newer block types go to the schema.
 */
export function isPlainMessagesAnswerBlock(value: unknown): value is MessagesContentBlock {
  if (!isObject(value)) return false;
  switch (value.type) {
    case 'text':
      return typeof value.text === 'string' && value.cache_control === undefined && isAbsent(value.citations);
    case 'thinking':
      return typeof value.thinking === 'string' && typeof value.signature === 'string';
    case 'redacted_thinking':
      return typeof value.data === 'string';
    case 'tool_use':
      return (
        typeof value.id === 'string' &&
        typeof value.name === 'string' &&
        isObject(value.input) &&
        value.cache_control === undefined &&
        value.caller === undefined
      );
    default:
      return false;
  }
}

function isPlainDelta(value: unknown): boolean {
  return (
    isTyped(value) &&
    isOptionalString(value.text) &&
    isOptionalString(value.partial_json) &&
    isOptionalString(value.thinking) &&
    isOptionalString(value.signature)
  );
}

const isPlainStop = (value: unknown) =>
  isAbsent(value) || (isObject(value) && isOptionalString(value.stop_reason) && isOptionalString(value.stop_sequence));

/** A stream event of a known, non-error type that the event schema would return unchanged. */
export function isPlainMessagesUpstreamEvent(value: unknown): value is MessagesUpstreamEvent {
  if (!isObject(value)) return false;
  switch (value.type) {
    case 'content_block_delta':
      return isCount(value.index) && isPlainDelta(value.delta);
    case 'message_start':
      return isPlainMessagesUpstreamMessage(value.message);
    case 'content_block_start':
      return isCount(value.index) && isTyped(value.content_block);
    case 'content_block_stop':
      return isCount(value.index);
    case 'message_delta':
      return isPlainStop(value.delta) && isPlainUsage(value.usage);
    case 'message_stop':
    case 'ping':
      return true;
    default:
      return false;
  }
}
