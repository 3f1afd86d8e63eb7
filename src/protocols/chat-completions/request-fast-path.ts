import type { CanonicalMessage, CanonicalRequest, SamplingOptions, TextPart } from '../../canonical/index.js';

/*
 * Most Chat requests are plain: text messages and a few numeric settings. For those, validating
 * with the schema and then mapping field by field costs more than the rest of the request's
 * translation together. This recognises that shape with direct checks and builds the canonical
 * request in one pass; anything else (tools, content arrays, nulls, unknown fields, odd types)
 * returns undefined and takes the full decoder. A property test holds the two to the same answer.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isInteger = (value: unknown): value is number => Number.isSafeInteger(value);

/** Roles whose plain form is `{ role, content: string }`. Developer messages carry an extension, so they are not plain. */
function isPlainMessage(value: unknown): value is { role: 'system' | 'user' | 'assistant'; content: string } {
  if (!isObject(value)) return false;
  let keys = 0;
  for (const key in value) {
    if (key !== 'role' && key !== 'content') return false;
    keys += 1;
  }
  const { role, content } = value;
  return keys === 2 && typeof content === 'string' && content !== '' && (role === 'system' || role === 'user' || role === 'assistant');
}

function isPlainStreamOptions(value: unknown): value is { include_usage?: boolean } {
  if (!isObject(value)) return false;
  for (const key in value) if (key !== 'include_usage' || typeof value[key] !== 'boolean') return false;
  return true;
}

/** Top-level fields a plain request may carry, each with its check. */
const plainFields = new Map<string, (value: unknown) => boolean>([
  ['model', (value) => typeof value === 'string'],
  ['messages', Array.isArray],
  ['stream', (value) => typeof value === 'boolean'],
  ['stream_options', isPlainStreamOptions],
  ['max_completion_tokens', isInteger],
  ['max_tokens', isInteger],
  ['temperature', isNumber],
  ['top_p', isNumber],
  ['presence_penalty', isNumber],
  ['frequency_penalty', isNumber],
  ['seed', isInteger],
]);

function isPlainBody(body: Json): boolean {
  for (const key in body) {
    const check = plainFields.get(key);
    if (check === undefined || !check(body[key])) return false;
  }
  // Both token limits at once keep the superseded one in extensions: the full decoder's job.
  return (
    typeof body.model === 'string' &&
    Array.isArray(body.messages) &&
    !(body.max_tokens !== undefined && body.max_completion_tokens !== undefined)
  );
}

function decodeSampling(body: Json): SamplingOptions | undefined {
  let sampling: SamplingOptions | undefined;
  if (body.temperature !== undefined) (sampling ??= {}).temperature = body.temperature as number;
  if (body.top_p !== undefined) (sampling ??= {}).topP = body.top_p as number;
  if (body.presence_penalty !== undefined) (sampling ??= {}).presencePenalty = body.presence_penalty as number;
  if (body.frequency_penalty !== undefined) (sampling ??= {}).frequencyPenalty = body.frequency_penalty as number;
  if (body.seed !== undefined) (sampling ??= {}).seed = body.seed as number;
  return sampling;
}

/**
 * The canonical request for a plain Chat body, equal to what `decodeChatRequest` returns for it;
 * undefined when the body is not plain (the caller then takes the full decoder).
 */
export function decodePlainChatRequest(body: unknown): CanonicalRequest | undefined {
  if (!isObject(body) || !isPlainBody(body)) return undefined;
  const wire = body.messages as unknown[];
  const system: TextPart[] = [];
  const messages: CanonicalMessage[] = [];
  for (const message of wire) {
    if (!isPlainMessage(message)) return undefined;
    const content: TextPart[] = [{ type: 'text', text: message.content }];
    // Leading system messages are the request's system prompt; later ones stay in place.
    if (message.role === 'system' && messages.length === 0) system.push(content[0]!);
    else messages.push({ role: message.role, content });
  }
  const request: CanonicalRequest = { model: body.model as string, messages, stream: body.stream === true };
  if (system.length > 0) request.system = system;
  const sampling = decodeSampling(body);
  if (sampling !== undefined) request.sampling = sampling;
  const maxOutputTokens = body.max_completion_tokens ?? body.max_tokens;
  if (maxOutputTokens !== undefined) request.maxOutputTokens = maxOutputTokens as number;
  const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage;
  if (includeUsage !== undefined) request.includeUsage = includeUsage;
  return request;
}
