// Chat Completions stream chunks as OpenAI writes them, for the decoder's template tests.

export interface Chunk {
  id: string;
  choices: { index: number; delta: Record<string, unknown>; finish_reason: string | null }[];
  [member: string]: unknown;
}

export const chunkOf = (content: string, changes: Partial<Chunk> = {}): Chunk => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1764400000,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
  ...changes,
});

/** A chunk whose first choice's delta is `delta`. */
export const deltaChunk = (delta: Record<string, unknown>): Chunk => chunkOf('', { choices: [{ index: 0, delta, finish_reason: null }] });

/** Where the decoder reads a chunk's text. */
export const textOfChunk = (chunk: unknown) => (chunk as Chunk).choices?.[0]?.delta?.content;
