import type { CanonicalMessage, CanonicalRequest, SamplingOptions, TextPart } from '../../canonical/index.js';

/*
 * Most Messages requests are plain: a system prompt, user and assistant text, a token limit and a
 * few sampling settings. For those, schema validation and the block-by-block mapping cost more
 * than the rest of the request's translation together. This recognises that shape with direct
 * checks and builds the canonical request in one pass; anything else (tools, images, thinking,
 * cache_control, unknown fields, odd types) returns undefined and takes the full decoder. A
 * property test holds the two to the same answer.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isInteger = (value: unknown): value is number => Number.isSafeInteger(value);

/** Exactly `{ type: 'text', text }`: no cache_control, no citations. */
function isPlainTextBlock(value: unknown): value is { type: 'text'; text: string } {
  if (!isObject(value)) return false;
  let keys = 0;
  for (const key in value) {
    if (key !== 'type' && key !== 'text') return false;
    keys += 1;
  }
  return keys === 2 && value.type === 'text' && typeof value.text === 'string';
}

/** A string or a non-empty list of plain text blocks, as text parts; undefined for anything else. */
function textParts(content: unknown): TextPart[] | undefined {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content) || content.length === 0) return undefined;
  const parts: TextPart[] = [];
  for (const block of content) {
    if (!isPlainTextBlock(block)) return undefined;
    parts.push({ type: 'text', text: block.text });
  }
  return parts;
}

function decodePlainMessage(value: unknown): CanonicalMessage | undefined {
  if (!isObject(value)) return undefined;
  let keys = 0;
  for (const key in value) {
    if (key !== 'role' && key !== 'content') return undefined;
    keys += 1;
  }
  const { role } = value;
  if (keys !== 2 || (role !== 'user' && role !== 'assistant')) return undefined;
  const content = textParts(value.content);
  return content === undefined ? undefined : { role, content };
}

const isPlainMetadata = (value: unknown) => isObject(value) && Object.keys(value).length === 1 && typeof value.user_id === 'string';

/** Top-level fields a plain request may carry, each with its check. */
const plainFields = new Map<string, (value: unknown) => boolean>([
  ['model', (value) => typeof value === 'string' && value !== ''],
  ['max_tokens', (value) => isInteger(value) && value >= 0],
  ['messages', Array.isArray],
  ['system', (value) => typeof value === 'string' || Array.isArray(value)],
  ['stream', (value) => typeof value === 'boolean'],
  ['stop_sequences', (value) => Array.isArray(value) && value.every((item) => typeof item === 'string')],
  ['temperature', isNumber],
  ['top_p', isNumber],
  ['top_k', isInteger],
  ['metadata', isPlainMetadata],
]);

function decodeSampling(body: Json): SamplingOptions | undefined {
  let sampling: SamplingOptions | undefined;
  if (body.temperature !== undefined) (sampling ??= {}).temperature = body.temperature as number;
  if (body.top_p !== undefined) (sampling ??= {}).topP = body.top_p as number;
  if (body.top_k !== undefined) (sampling ??= {}).topK = body.top_k as number;
  return sampling;
}

/**
 * The canonical request for a plain Messages body, equal to what `decodeMessagesRequest` returns
 * for it; undefined when the body is not plain (the caller then takes the full decoder).
 */
export function decodePlainMessagesRequest(body: unknown): CanonicalRequest | undefined {
  if (!isObject(body)) return undefined;
  for (const key in body) {
    const check = plainFields.get(key);
    if (check === undefined || !check(body[key])) return undefined;
  }
  if (body.model === undefined || body.max_tokens === undefined || body.messages === undefined) return undefined;
  const messages: CanonicalMessage[] = [];
  for (const wire of body.messages as unknown[]) {
    const message = decodePlainMessage(wire);
    if (message === undefined) return undefined;
    messages.push(message);
  }
  const request: CanonicalRequest = {
    model: body.model as string,
    messages,
    maxOutputTokens: body.max_tokens as number,
    stream: body.stream === true,
  };
  if (body.system !== undefined) {
    const system = textParts(body.system);
    if (system === undefined) return undefined;
    request.system = system;
  }
  if (body.stop_sequences !== undefined) request.stopSequences = body.stop_sequences as string[];
  const sampling = decodeSampling(body);
  if (sampling !== undefined) request.sampling = sampling;
  if (body.metadata !== undefined) request.metadata = { userId: (body.metadata as { user_id: string }).user_id };
  return request;
}
