import type { CanonicalStreamEvent, Usage } from '../../canonical/index.js';
import { GatewayError, streamEndedEarly } from '../../canonical/index.js';
import type { SseMessage } from '../../sse/format-sse.js';
import { createFunctionCallDecoder, type GeminiDecodeOptions } from './function-call-decoder.js';
import { decodeGeminiOutcome, geminiBadResponse, readGeminiResponse } from './response-decoder.js';
import type { GeminiUsageMetadata, GeminiWirePart } from './upstream-schema.js';
import { encodeReasoningSignature } from './signatures.js';
import { decodeGeminiUsage } from './usage.js';

export interface GeminiStreamDecoder {
  /** The canonical events for one SSE frame (a whole `GenerateContentResponse` chunk). */
  decode(message: SseMessage): CanonicalStreamEvent[];
  /** The closing events once the connection has closed (Gemini sends no end marker). */
  end(): CanonicalStreamEvent[];
}

const endedEarly = () => streamEndedEarly("Google Gemini's stream ended before the answer was finished (no finish reason).");

function inputSide(usage: Usage): Usage | undefined {
  if (usage.inputTokens === undefined) return undefined;
  return {
    inputTokens: usage.inputTokens,
    ...(usage.cachedInputTokens === undefined ? {} : { cachedInputTokens: usage.cachedInputTokens }),
  };
}

/**
 * Gemini `alt=sse` frames → canonical block events, as they arrive. Text and thought fragments
 * extend the open block of their kind; a function call arrives whole, so it is a start, one delta
 * (the arguments JSON) and an end at once; a thought signature ends its reasoning block with it
 * (on a text part: a signature-only reasoning block after the text). `finish` is emitted at the
 * end of the stream with the last (cumulative) usage, as `tool-calls` if any call was seen, even
 * when the calls and `STOP` came in different chunks. An `error` frame becomes an `error` event.
 */
export function createGeminiStreamDecoder(options: GeminiDecodeOptions): GeminiStreamDecoder {
  const decodeCall = createFunctionCallDecoder(options);
  let responseId = options.fallbackId;
  let started = false;
  let done = false;
  let blocks = 0;
  let open: { id: string; kind: 'text' | 'reasoning' } | undefined;
  let toolCalls = false;
  let finishReason: string | undefined;
  let finishMessage: string | undefined;
  let blockReason: string | undefined;
  let usage: GeminiUsageMetadata | undefined;

  const nextId = () => `b${blocks++}`;

  function close(): CanonicalStreamEvent[] {
    if (!open) return [];
    const event: CanonicalStreamEvent = open.kind === 'text' ? { type: 'text-end', id: open.id } : { type: 'reasoning-end', id: open.id };
    open = undefined;
    return [event];
  }

  function ensureOpen(kind: 'text' | 'reasoning', events: CanonicalStreamEvent[]): string {
    if (open?.kind === kind) return open.id;
    events.push(...close());
    open = { id: nextId(), kind };
    events.push(kind === 'text' ? { type: 'text-start', id: open.id } : { type: 'reasoning-start', id: open.id });
    return open.id;
  }

  function signatureBlock(signature: string, events: CanonicalStreamEvent[]): void {
    const id = ensureOpen('reasoning', events);
    events.push({ type: 'reasoning-end', id, signature: encodeReasoningSignature(signature) });
    open = undefined;
  }

  function decodePart(part: GeminiWirePart, events: CanonicalStreamEvent[]): void {
    const signature = part.thoughtSignature || undefined;
    if (part.functionCall) {
      events.push(...close());
      const call = decodeCall(part.functionCall, signature, responseId);
      const id = nextId();
      events.push(
        {
          type: 'tool-call-start',
          id,
          toolCallId: call.id,
          name: call.name,
          ...(call.namespace === undefined ? {} : { namespace: call.namespace }),
        },
        { type: 'tool-call-delta', id, delta: call.arguments },
        { type: 'tool-call-end', id },
      );
      toolCalls = true;
      return;
    }
    const text = part.text ?? '';
    if (part.thought === true) {
      if (text === '' && signature === undefined) return;
      const id = ensureOpen('reasoning', events);
      if (text !== '') events.push({ type: 'reasoning-delta', id, delta: text });
      if (signature !== undefined) signatureBlock(signature, events);
      return;
    }
    if (text !== '') events.push({ type: 'text-delta', id: ensureOpen('text', events), delta: text });
    if (signature !== undefined) {
      events.push(...close());
      signatureBlock(signature, events);
    }
  }

  function fail(error: GatewayError): CanonicalStreamEvent[] {
    done = true;
    return [{ type: 'error', error }];
  }

  return {
    decode(message) {
      const data = message.data.trim();
      if (done || data === '' || data === '[DONE]') return [];
      let wire;
      try {
        wire = readGeminiResponse(JSON.parse(data));
      } catch (error) {
        return fail(GatewayError.isInstance(error) ? error : geminiBadResponse('a stream frame is not JSON', data));
      }
      const events: CanonicalStreamEvent[] = [];
      if (!started) {
        started = true;
        responseId = wire.responseId || options.fallbackId;
        const early = inputSide(decodeGeminiUsage(wire.usageMetadata));
        events.push({
          type: 'start',
          id: responseId,
          model: wire.modelVersion || options.fallbackModel,
          ...(early ? { usage: early } : {}),
        });
      }
      const candidate = wire.candidates?.[0];
      for (const part of candidate?.content?.parts ?? []) decodePart(part, events);
      if (candidate?.finishReason) finishReason = candidate.finishReason;
      if (candidate?.finishMessage) finishMessage = candidate.finishMessage;
      if (wire.promptFeedback?.blockReason) blockReason = wire.promptFeedback.blockReason;
      if (wire.usageMetadata) usage = wire.usageMetadata;
      return events;
    },

    end() {
      if (done) return [];
      done = true;
      const events = close();
      if (!started || (finishReason === undefined && blockReason === undefined)) return [...events, { type: 'error', error: endedEarly() }];
      try {
        const reason = decodeGeminiOutcome({ finishReason, finishMessage, blockReason }, { toolCalls, content: blocks > 0 });
        events.push({ type: 'finish', finishReason: reason, usage: decodeGeminiUsage(usage) });
      } catch (error) {
        events.push({ type: 'error', error: GatewayError.isInstance(error) ? error : endedEarly() });
      }
      return events;
    },
  };
}
