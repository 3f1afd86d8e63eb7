export interface SseFrame {
  event: string | undefined;
  data: Record<string, unknown>;
}

/** Splits SSE text into frames (`event:` name + parsed `data:` JSON); tests only. */
export function parseSseFrames(text: string): SseFrame[] {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const lines = chunk.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length);
      const data = lines.find((line) => line.startsWith('data: '))?.slice('data: '.length) ?? 'null';
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}
