import { unsupportedFeatureError } from '../../canonical/index.js';
import type { AssistantMessage, CanonicalMessage, ToolResultPart, UserMessage } from '../../canonical/index.js';
import { encodeGeminiMedia } from './media-encoder.js';
import type { GeminiContent, GeminiPart } from './upstream-schema.js';
import { decodeReasoningSignature, decodeToolCallId } from './signatures.js';
import { encodeGeminiFunctionName } from './tools-encoder.js';

/** Google's documented stand-in when a replayed function-call step lost its signature. */
export const SKIP_SIGNATURE_VALIDATOR = 'skip_thought_signature_validator';

/** Calls seen in the conversation: canonical id → Gemini name. Results name their call only by id. */
type CallNames = Map<string, string>;

function callNamesOf(messages: readonly CanonicalMessage[]): CallNames {
  const names: CallNames = new Map();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') names.set(part.id, encodeGeminiFunctionName(part.name, part.namespace));
    }
  }
  return names;
}

/** Arguments JSON text → the object Gemini wants; empty → {}; invalid JSON or a non-object → `{_raw: text}`. */
export function parseGeminiArguments(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // not JSON: wrapped below
  }
  return { _raw: text };
}

function encodeUserParts(message: UserMessage, model: string): GeminiPart[] {
  return message.content.flatMap((part): GeminiPart[] => {
    if (part.type === 'text') return part.text === '' ? [] : [{ text: part.text }];
    if (part.type === 'provider-defined')
      throw unsupportedFeatureError(`'${part.kind}' content`, model, { param: 'messages', reason: 'Google Gemini has no equivalent' });
    return [encodeGeminiMedia(part, model)];
  });
}

/** A signature-only reasoning part goes back on the text part it came from, or alone as `{text:"", thoughtSignature}`. */
function placeSignature(parts: GeminiPart[], signature: string): void {
  const last = parts.at(-1);
  if (last?.text !== undefined && last.thought !== true && last.thoughtSignature === undefined) last.thoughtSignature = signature;
  else parts.push({ text: '', thoughtSignature: signature });
}

function encodeModelParts(message: AssistantMessage, model: string): GeminiPart[] {
  const parts: GeminiPart[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
      case 'refusal':
        if (part.text !== '') parts.push({ text: part.text });
        break;
      case 'reasoning': {
        // Other vendors' signatures and redacted data mean nothing to Gemini: only the text travels.
        const signature = decodeReasoningSignature(part.signature);
        if (part.text !== '')
          parts.push({ text: part.text, thought: true, ...(signature === undefined ? {} : { thoughtSignature: signature }) });
        else if (signature !== undefined) placeSignature(parts, signature);
        break;
      }
      case 'tool-call': {
        const { callId, signature } = decodeToolCallId(part.id);
        parts.push({
          functionCall: {
            name: encodeGeminiFunctionName(part.name, part.namespace),
            args: parseGeminiArguments(part.arguments),
            id: callId,
          },
          ...(signature === undefined ? {} : { thoughtSignature: signature }),
        });
        break;
      }
      case 'provider-defined':
        throw unsupportedFeatureError(`'${part.kind}' content`, model, { param: 'messages', reason: 'Google Gemini has no equivalent' });
    }
  }
  return parts;
}

function resultText(result: ToolResultPart): string {
  return result.content
    .flatMap((part) => (part.type === 'text' ? [part.text] : part.type === 'file' && part.source.kind === 'text' ? [part.source.text] : []))
    .join('\n');
}

/**
 * Tool results → `functionResponse` parts (name found from the call's id; `response` always an
 * object: `{output}` or `{error}`; images and documents in `parts`). A result whose call is not in
 * the conversation (trimmed history) would be a 400 on Gemini: it becomes user text instead.
 */
function encodeToolResults(results: readonly ToolResultPart[], names: CallNames, model: string): GeminiPart[] {
  return results.map((result): GeminiPart => {
    const text = resultText(result);
    const name = names.get(result.toolCallId);
    if (name === undefined) return { text: `Result of tool call '${result.toolCallId}':\n${text}` };
    const media = result.content.flatMap((part): GeminiPart[] => {
      if (part.type === 'provider-defined')
        throw unsupportedFeatureError(`'${part.kind}' tool result content`, model, {
          param: 'messages',
          reason: 'Google Gemini has no equivalent',
        });
      if (part.type === 'text' || (part.type === 'file' && part.source.kind === 'text')) return [];
      return [encodeGeminiMedia(part, model)];
    });
    return {
      functionResponse: {
        name,
        id: decodeToolCallId(result.toolCallId).callId,
        response: result.isError === true ? { error: text } : { output: text },
        ...(media.length === 0 ? {} : { parts: media }),
      },
    };
  });
}

/** Function responses first, in the order of the calls they answer; other parts after, in order. */
function orderResults(parts: GeminiPart[], previous: GeminiContent | undefined): GeminiPart[] {
  const order = new Map<string, number>();
  previous?.parts.forEach((part, index) => {
    if (part.functionCall?.id !== undefined) order.set(part.functionCall.id, index);
  });
  const rank = (part: GeminiPart): number =>
    part.functionResponse === undefined ? Number.POSITIVE_INFINITY : (order.get(part.functionResponse.id ?? '') ?? order.size);
  return parts
    .map((part, index) => ({ part, index }))
    .sort((a, b) => rank(a.part) - rank(b.part) || a.index - b.index)
    .map(({ part }) => part);
}

/**
 * The first function call of each model step after the last real user input gets Google's
 * "skip validator" signature when the step has none (history from another provider, or a client
 * that dropped the ids carrying them): Gemini 3 would reject it otherwise. Earlier steps are not validated.
 */
function signUnsignedSteps(contents: GeminiContent[]): void {
  const lastInput = contents.findLastIndex(
    (content) => content.role === 'user' && content.parts.some((part) => part.functionResponse === undefined),
  );
  for (const content of contents.slice(lastInput + 1)) {
    if (content.role !== 'model' || content.parts.some((part) => part.thoughtSignature !== undefined)) continue;
    const firstCall = content.parts.find((part) => part.functionCall !== undefined);
    if (firstCall) firstCall.thoughtSignature = SKIP_SIGNATURE_VALIDATOR;
  }
}

/**
 * Canonical conversation → Gemini `contents` (roles `user`/`model`; tool results are user turns)
 * plus the text of system messages found inside it (hoisted into `systemInstruction`, in order).
 * Consecutive same-role turns are merged, so parallel results share one turn right after their
 * calls; empty parts and empty turns are dropped.
 */
export function encodeGeminiContents(
  messages: readonly CanonicalMessage[],
  model: string,
): { contents: GeminiContent[]; system: string[] } {
  const names = callNamesOf(messages);
  const system: string[] = [];
  const contents: GeminiContent[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      system.push(...message.content.map((part) => part.text).filter((text) => text !== ''));
      continue;
    }
    const role = message.role === 'assistant' ? 'model' : 'user';
    const parts =
      message.role === 'assistant'
        ? encodeModelParts(message, model)
        : message.role === 'tool'
          ? encodeToolResults(message.content, names, model)
          : encodeUserParts(message, model);
    if (parts.length === 0) continue;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  }
  contents.forEach((content, index) => {
    if (content.role === 'user') content.parts = orderResults(content.parts, contents[index - 1]);
  });
  signUnsignedSteps(contents);
  return { contents, system };
}
