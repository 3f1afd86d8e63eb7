import type { ProtocolName } from '../canonical/index.js';

/** Anthropic's own keep-alive event, byte for byte. */
const messagesPing = 'event: ping\ndata: {"type": "ping"}\n\n';
/** An SSE comment: every SSE parser skips it, as OpenAI's clients do. */
const sseComment = ': keep-alive\n\n';

/** What a protocol's stream carries to keep a silent connection alive: Messages `ping`, else an SSE comment. */
export function keepAliveFrame(protocol: ProtocolName): string {
  return protocol === 'messages' ? messagesPing : sseComment;
}
