import type { CanonicalMessage, CanonicalRequest, SamplingOptions } from '../../canonical/index.js';

/*
 * Most Responses requests from SDKs and agents are plain: `instructions`, text input (a string or
 * user/assistant messages with string content) and a few numeric settings. For those, the schema
 * and the item-by-item decoder cost more than the rest of the request's translation together. This
 * recognises that shape with direct checks and builds the canonical request in one pass; anything
 * else (tools, content arrays, system or developer items, nulls, unknown fields, odd types)
 * returns undefined and takes the full decoder. A property test holds the two to the same answer.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** `{ role: 'user' | 'assistant', content: string }`, with `type: 'message'` or without. */
function isPlainMessage(value: unknown): value is { role: 'user' | 'assistant'; content: string } {
  if (!isObject(value)) return false;
  for (const key in value) {
    if (key === 'type' ? value.type !== 'message' : key !== 'role' && key !== 'content') return false;
  }
  return typeof value.content === 'string' && (value.role === 'user' || value.role === 'assistant');
}

/** Top-level fields a plain request may carry, each with its check. */
const plainFields = new Map<string, (value: unknown) => boolean>([
  ['model', (value) => typeof value === 'string' && value !== ''],
  ['input', (value) => typeof value === 'string' || Array.isArray(value)],
  ['instructions', (value) => typeof value === 'string'],
  ['stream', (value) => typeof value === 'boolean'],
  ['max_output_tokens', isCount],
  ['temperature', isNumber],
  ['top_p', isNumber],
]);

/**
 * The canonical request for a plain Responses body, equal to what the full decoder returns for
 * it; undefined when the body is not plain (the caller then takes the full decoder).
 */
export function decodePlainResponsesRequest(body: unknown): CanonicalRequest | undefined {
  if (!isObject(body)) return undefined;
  for (const key in body) {
    const check = plainFields.get(key);
    if (check === undefined || !check(body[key])) return undefined;
  }
  if (typeof body.model !== 'string') return undefined;
  const messages: CanonicalMessage[] = [];
  const input = body.input;
  if (typeof input === 'string') messages.push({ role: 'user', content: [{ type: 'text', text: input }] });
  else if (Array.isArray(input)) {
    for (const item of input) {
      if (!isPlainMessage(item)) return undefined;
      const part = { type: 'text' as const, text: item.content };
      const last = messages.at(-1);
      // Adjacent assistant items form one assistant message, as in the full decoder.
      if (item.role === 'assistant' && last?.role === 'assistant') last.content.push(part);
      else messages.push({ role: item.role, content: [part] });
    }
  }
  const request: CanonicalRequest = { model: body.model, messages, stream: body.stream === true };
  if (typeof body.instructions === 'string') request.system = [{ type: 'text', text: body.instructions }];
  let sampling: SamplingOptions | undefined;
  if (body.temperature !== undefined) (sampling ??= {}).temperature = body.temperature as number;
  if (body.top_p !== undefined) (sampling ??= {}).topP = body.top_p as number;
  if (sampling !== undefined) request.sampling = sampling;
  if (body.max_output_tokens !== undefined) request.maxOutputTokens = body.max_output_tokens as number;
  return request;
}
