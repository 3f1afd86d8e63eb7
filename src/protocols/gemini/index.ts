/**
 * Google Gemini (`generativelanguage` v1beta `:generateContent` / `:streamGenerateContent?alt=sse`).
 * Outbound only: the gateway calls Gemini, clients never call the gateway in it, so there is no
 * inbound codec here — only request encoding and response, stream and error decoding.
 */
export { encodeGeminiRequest } from './request-encoder.js';
export type { EncodeGeminiRequestOptions } from './request-encoder.js';
export { decodeGeminiResponse } from './response-decoder.js';
export { createGeminiStreamDecoder } from './stream-decoder.js';
export type { GeminiStreamDecoder } from './stream-decoder.js';
export type { GeminiDecodeOptions } from './function-call-decoder.js';
export { parseGeminiError } from './upstream-error.js';
export { decodeGeminiFinishReason } from './finish-reason.js';
export { decodeGeminiUsage } from './usage.js';
export { geminiThinkingControl } from './thinking-encoder.js';
export type { GeminiThinkingControl } from './thinking-encoder.js';
export { encodeToolCallId, decodeToolCallId, encodeReasoningSignature, decodeReasoningSignature } from './signatures.js';
export { SKIP_SIGNATURE_VALIDATOR } from './contents-encoder.js';
export type { GeminiRequest, GeminiContent, GeminiPart } from './upstream-schema.js';
