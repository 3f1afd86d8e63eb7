/**
 * Google Gemini (`generativelanguage` v1beta `:generateContent` / `:streamGenerateContent?alt=sse`).
 * Outbound only: the gateway calls Gemini, clients never call the gateway in it, so there is no
 * inbound codec here — only request encoding and response, stream and error decoding.
 */
export { encodeGeminiRequest } from './request.js';
export type { EncodeGeminiRequestOptions } from './request.js';
export { decodeGeminiResponse } from './response.js';
export { createGeminiStreamDecoder } from './stream-decoder.js';
export type { GeminiStreamDecoder } from './stream-decoder.js';
export type { GeminiDecodeOptions } from './function-call.js';
export { parseGeminiError } from './errors.js';
export { decodeGeminiFinishReason } from './finish-reason.js';
export { decodeGeminiUsage } from './usage.js';
export { geminiThinkingControl } from './thinking.js';
export type { GeminiThinkingControl } from './thinking.js';
export { encodeToolCallId, decodeToolCallId, encodeReasoningSignature, decodeReasoningSignature } from './signatures.js';
export { SKIP_SIGNATURE_VALIDATOR } from './contents.js';
export type { GeminiRequest, GeminiContent, GeminiPart } from './schema.js';
