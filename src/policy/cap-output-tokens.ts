import type { CanonicalRequest, ProtocolName } from '../canonical/index.js';

/**
 * The request held to `cap` output tokens: a larger maximum is lowered to it, a request without
 * one is sent with it. A thinking budget that would take the output past the cap (Anthropic adds
 * a budget to a maximum that does not exceed it) is scaled by the same factor, so thinking keeps
 * its share. Chat's superseded `max_tokens` (sent beside `max_completion_tokens`) is lowered too.
 * Returns `request` itself when it is within the cap.
 */
export function capOutputTokens(cap: number, request: CanonicalRequest, protocol: ProtocolName): CanonicalRequest {
  const asked = request.maxOutputTokens;
  const limit = asked ?? cap;
  const budget = request.reasoning?.budgetTokens;
  // What the provider would be asked for: Anthropic sends budget + limit when the limit does not exceed the budget.
  const total = budget !== undefined && budget >= limit ? budget + limit : limit;
  const legacy = protocol === 'chat' ? request.extensions?.chat?.max_tokens : undefined;
  const legacyOver = typeof legacy === 'number' && legacy > cap;
  if (asked !== undefined && total <= cap && !legacyOver) return request;

  const capped: CanonicalRequest = { ...request, maxOutputTokens: total > cap ? cap : limit };
  if (budget !== undefined && total > cap) {
    capped.reasoning = { ...request.reasoning, budgetTokens: Math.min(Math.floor((budget * cap) / total), cap - 1) };
  }
  if (legacyOver) capped.extensions = { ...request.extensions, chat: { ...request.extensions?.chat, max_tokens: cap } };
  return capped;
}
