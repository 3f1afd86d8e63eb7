import type { AssistantContentPart, CanonicalResponse, FinishReason } from '../../canonical/index.js';
import { GatewayError } from '../../canonical/index.js';
import { parseGeminiError } from './upstream-error.js';
import { decodeGeminiFinishReason, geminiFinishError } from './finish-reason.js';
import { createFunctionCallDecoder, type GeminiDecodeOptions } from './function-call-decoder.js';
import { GeminiResponseSchema, type GeminiResponse } from './upstream-schema.js';
import { encodeReasoningSignature } from './signatures.js';
import { decodeGeminiUsage } from './usage.js';

/** An upstream body that is not a `GenerateContentResponse` at all. */
export function geminiBadResponse(detail: string, cause?: unknown): GatewayError {
  return new GatewayError({
    code: 'UPSTREAM_INVALID_RESPONSE',
    message: `Google Gemini sent an answer the gateway cannot read: ${detail}.`,
    cause,
  });
}

/** Parses a body or stream frame leniently; an `error` inside becomes a thrown GatewayError. */
export function readGeminiResponse(body: unknown): GeminiResponse {
  const parsed = GeminiResponseSchema.safeParse(body);
  if (!parsed.success) throw geminiBadResponse(parsed.error.issues[0]?.message ?? 'unexpected shape', body);
  const { error } = parsed.data;
  if (error) throw parseGeminiError(error.code ?? 500, { error });
  return parsed.data;
}

/** Finish reason of a whole answer or a whole stream; throws where the answer must not pass as a success. */
export function decodeGeminiOutcome(
  wire: { finishReason?: string | undefined; finishMessage?: string | undefined; blockReason?: string | undefined },
  seen: { toolCalls: boolean; content: boolean },
): FinishReason {
  // A blocked prompt has no candidates, only `promptFeedback.blockReason`: a refusal, not an HTTP error.
  if (wire.finishReason === undefined && wire.blockReason !== undefined) return { unified: 'content-filter', raw: wire.blockReason };
  const finishReason = decodeGeminiFinishReason(wire.finishReason, { hasToolCalls: seen.toolCalls });
  if (finishReason.unified === 'error' || (finishReason.unified === 'other' && !seen.content)) {
    throw geminiFinishError(wire.finishReason, wire.finishMessage);
  }
  return finishReason;
}

/**
 * A `generateContent` answer → canonical response (first candidate). Thought parts → reasoning;
 * text → text; each `functionCall` → a tool call whose id is Gemini's (or a minted one) with the
 * part's thought signature carried in it; a signature on a text part follows it as a
 * signature-only reasoning part. `STOP` with calls → `tool-calls`.
 */
export function decodeGeminiResponse(body: unknown, options: GeminiDecodeOptions): CanonicalResponse {
  const wire = readGeminiResponse(body);
  const id = wire.responseId || options.fallbackId;
  const candidate = wire.candidates?.[0];
  const decodeCall = createFunctionCallDecoder(options);
  const content: AssistantContentPart[] = [];
  for (const part of candidate?.content?.parts ?? []) {
    const signature = part.thoughtSignature || undefined;
    const signed = signature === undefined ? {} : { signature: encodeReasoningSignature(signature) };
    if (part.functionCall) {
      content.push(decodeCall(part.functionCall, signature, id));
    } else if (part.thought === true) {
      if (part.text || signature !== undefined) content.push({ type: 'reasoning', text: part.text ?? '', ...signed });
    } else if (typeof part.text === 'string') {
      if (part.text !== '') content.push({ type: 'text', text: part.text });
      if (signature !== undefined) content.push({ type: 'reasoning', text: '', ...signed });
    }
    // Other parts (code execution, generated media) only answer features the gateway never asks for.
  }
  const finishReason = decodeGeminiOutcome(
    {
      finishReason: candidate?.finishReason ?? undefined,
      finishMessage: candidate?.finishMessage ?? undefined,
      blockReason: wire.promptFeedback?.blockReason ?? undefined,
    },
    { toolCalls: content.some((part) => part.type === 'tool-call'), content: content.length > 0 },
  );
  return {
    id,
    model: wire.modelVersion || options.fallbackModel,
    content,
    finishReason,
    usage: decodeGeminiUsage(wire.usageMetadata),
  };
}
