import type { CanonicalTool, ToolCallPart } from '../../canonical/index.js';
import type { GeminiWirePart } from './upstream-schema.js';
import { encodeToolCallId, mintToolCallId } from './signatures.js';
import { geminiFunctionNames } from './tools-encoder.js';

/** What a decoder needs besides the body: fallbacks and the request's tools. */
export interface GeminiDecodeOptions {
  /** The answer's id when Gemini sends no `responseId` (e.g. `gemini_<request id>`); also seeds minted call ids. */
  fallbackId: string;
  /** The model when Gemini sends no `modelVersion`. */
  fallbackModel: string;
  /** The request's tools: namespaced functions are named `namespace.name` on Gemini. */
  tools?: readonly CanonicalTool[];
}

/** Turns whole `functionCall` parts into canonical calls, numbering them to mint ids. */
export function createFunctionCallDecoder(options: GeminiDecodeOptions) {
  const names = geminiFunctionNames(options.tools);
  let ordinal = 0;
  return (call: NonNullable<GeminiWirePart['functionCall']>, signature: string | null | undefined, responseId: string): ToolCallPart => {
    const callId = call.id || mintToolCallId(responseId, ordinal, call.name);
    ordinal += 1;
    const known = names.get(call.name);
    return {
      type: 'tool-call',
      id: encodeToolCallId(callId, signature ?? undefined),
      name: known?.name ?? call.name,
      arguments: JSON.stringify(call.args ?? {}),
      ...(known?.namespace === undefined ? {} : { namespace: known.namespace }),
    };
  };
}
