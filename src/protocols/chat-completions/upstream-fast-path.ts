import type { ChatUpstreamChunk, ChatUpstreamResponse } from './upstream-schema.js';

/*
 * The lenient upstream schemas return, for a well-formed answer, a copy equal to their input.
 * These checks recognise the common well-formed shapes (text, reasoning, tool calls, usage) cheaply
 * so the decoders can skip the schema for them; anything else — content arrays, odd types — still
 * goes through the schema. A property test holds them to that: whatever they accept, the
 * schema parses to an equal value.
 */

type Json = Record<string, unknown>;

// An own `__proto__` key (JSON.parse makes one) is dropped by the schema, so such an object is not
// returned unchanged: leave it to the schema.
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !Object.hasOwn(value, '__proto__');
const isAbsent = (value: unknown) => value === undefined || value === null;
const isOptionalString = (value: unknown) => isAbsent(value) || typeof value === 'string';
const isOptionalNumber = (value: unknown) => isAbsent(value) || (typeof value === 'number' && Number.isFinite(value));

function isPlainDetails(value: unknown, keys: readonly string[]): boolean {
  if (isAbsent(value)) return true;
  if (!isObject(value)) return false;
  for (const key of keys) if (!isOptionalNumber(value[key])) return false;
  return true;
}

function isPlainUsage(value: unknown): boolean {
  if (isAbsent(value)) return true;
  if (!isObject(value)) return false;
  return (
    isOptionalNumber(value.prompt_tokens) &&
    isOptionalNumber(value.completion_tokens) &&
    isOptionalNumber(value.total_tokens) &&
    isOptionalNumber(value.prompt_cache_hit_tokens) &&
    isPlainDetails(value.prompt_tokens_details, ['cached_tokens', 'cache_write_tokens']) &&
    isPlainDetails(value.completion_tokens_details, ['reasoning_tokens'])
  );
}

/** A tool call (or a fragment of one) with a function's name and string arguments, each where it belongs. */
function isPlainToolCall(value: unknown): boolean {
  if (!isObject(value) || !isOptionalNumber(value.index) || !isOptionalString(value.id) || !isOptionalString(value.type)) return false;
  if (value.custom !== undefined) return false;
  const { function: called } = value;
  if (isAbsent(called)) return true;
  return isObject(called) && isOptionalString(called.name) && isOptionalString(called.arguments);
}

/** A message or delta holding only text fields and plain tool calls (no content arrays or thinking blocks). */
function isPlainMessage(value: unknown): boolean {
  if (isAbsent(value)) return true;
  if (!isObject(value)) return false;
  return (
    isOptionalString(value.role) &&
    isOptionalString(value.content) &&
    isOptionalString(value.refusal) &&
    isOptionalString(value.reasoning_content) &&
    isOptionalString(value.reasoning) &&
    value.thinking_blocks === undefined &&
    (isAbsent(value.tool_calls) || (Array.isArray(value.tool_calls) && value.tool_calls.every(isPlainToolCall))) &&
    value.function_call === undefined &&
    (value.annotations === undefined || Array.isArray(value.annotations))
  );
}

function isPlainEnvelope(value: unknown): value is Json {
  return (
    isObject(value) &&
    value.error === undefined &&
    value.x_groq === undefined &&
    isOptionalString(value.id) &&
    isOptionalString(value.model) &&
    isPlainUsage(value.usage) &&
    Array.isArray(value.choices)
  );
}

/** A streamed chunk of text or reasoning deltas that the chunk schema would return unchanged. */
export function isPlainChatChunk(value: unknown): value is ChatUpstreamChunk {
  if (!isPlainEnvelope(value)) return false;
  for (const choice of value.choices as unknown[]) {
    if (!isObject(choice) || !isOptionalNumber(choice.index) || !isOptionalString(choice.finish_reason)) return false;
    if (!isPlainMessage(choice.delta)) return false;
  }
  return true;
}

/** A text answer that the response schema would return unchanged. */
export function isPlainChatResponse(value: unknown): value is ChatUpstreamResponse {
  if (!isPlainEnvelope(value) || !isOptionalString(value.service_tier) || !isOptionalString(value.system_fingerprint)) return false;
  for (const choice of value.choices as unknown[]) {
    if (!isObject(choice) || !isOptionalNumber(choice.index) || !isOptionalString(choice.finish_reason)) return false;
    if (!isPlainMessage(choice.message)) return false;
  }
  return true;
}
