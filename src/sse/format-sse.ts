/** One server-sent event as it goes on the wire. */
export interface SseMessage {
  event?: string;
  data: string;
}

/**
 * Formats one SSE frame. `data` must be a single line (JSON.stringify output is),
 * so no splitting into several `data:` lines is needed.
 */
export function formatSse(message: SseMessage): string {
  return message.event === undefined ? `data: ${message.data}\n\n` : `event: ${message.event}\ndata: ${message.data}\n\n`;
}
