import type { CanonicalRequest, ProtocolName } from '../../canonical/index.js';
import { contextLengthError } from '../../routing/context-length-error.js';
import type { ResolvedModel } from '../../routing/resolve-model.js';
import { estimateInputTokenRange } from '../../usage/estimate-input-tokens.js';
import { inputTokenBound } from '../../usage/input-token-bound.js';

/**
 * Checks a request against its model's context window before any provider is called, and says how
 * much the answer may write. Throws the protocol's own context-length 400 when the input alone,
 * counted low (`InputTokenRange.atLeast`), is over the window. Returns the model's largest output
 * capped by what remains of the window (input counted high), for providers that must send an
 * output limit the caller did not give; undefined when the largest output is not known, or when
 * by the high count nothing remains.
 * Tokenizes only when the cheap bound (a token per character) does not already show room enough.
 */
export function fitToWindow(
  request: CanonicalRequest,
  model: ResolvedModel,
  protocol: ProtocolName,
): number | undefined | Promise<number | undefined> {
  const { contextWindow: window, maxOutputTokens: largest } = model;
  if (window === undefined) return largest;
  const atMost = inputTokenBound(request);
  const room = request.maxOutputTokens === undefined ? (largest ?? 0) : 0;
  // Counted only when the cheap bound does not fit: most requests never wait for the tokenizer.
  if (atMost + room > window) return counted(request, model, protocol, window, atMost);
  return outputRoom(largest, window - atMost);
}

async function counted(
  request: CanonicalRequest,
  model: ResolvedModel,
  protocol: ProtocolName,
  window: number,
  bound: number,
): Promise<number | undefined> {
  const range = await estimateInputTokenRange(request);
  if (range.atLeast > window) throw contextLengthError(protocol, model.id, range.atLeast, window);
  return outputRoom(model.maxOutputTokens, window - Math.min(bound, range.atMost));
}

function outputRoom(largest: number | undefined, remaining: number): number | undefined {
  if (largest === undefined || remaining <= 0) return undefined;
  return Math.min(largest, remaining);
}
