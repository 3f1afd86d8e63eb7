import type { CanonicalRequest } from '../canonical/index.js';

/** A generous allowance for an image, audio clip or document whose size in tokens is not known here. */
const TOKENS_PER_MEDIA_PART = 2_000;

/**
 * An upper bound on a request's input tokens without a tokenizer: one token per character of
 * its text, tool arguments, results and tool definitions (real tokenizers average 3–4 characters
 * per token), plus an allowance per media part; base64 documents count a token per 3 bytes.
 * Used to reserve a request's largest possible cost against a budget, where too high is safe.
 */
export function inputTokenBound(request: CanonicalRequest): number {
  let bound = 0;
  for (const part of request.system ?? []) bound += part.text.length;
  for (const message of request.messages) {
    const parts = message.role === 'tool' ? message.content.flatMap((result) => result.content) : message.content;
    for (const part of parts) {
      if (part.type === 'text' || part.type === 'reasoning' || part.type === 'refusal') bound += part.text.length;
      else if (part.type === 'tool-call') bound += part.name.length + part.arguments.length;
      else if (part.type === 'provider-defined') bound += JSON.stringify(part.data).length;
      else if (part.type === 'file' && part.source.kind === 'text') bound += part.source.text.length;
      else if (part.type === 'file' && part.source.kind === 'base64') bound += Math.ceil(part.source.data.length / 4);
      else bound += TOKENS_PER_MEDIA_PART;
    }
    bound += 8; // role markers
  }
  if (request.tools?.length) bound += JSON.stringify(request.tools).length;
  return bound;
}

/**
 * Whether the request holds input whose size its body does not tell, so that `inputTokenBound` is
 * no bound: a document other than inline text (a PDF's pages cost far more tokens than its
 * compressed bytes, and one by URL or file id has no bytes here at all), an image (its tokens
 * follow its pixels and each provider's scaling and tiling, not its bytes: past 2,000 on some
 * models), or audio (its length in tokens is not in its bytes' count).
 */
export function hasUnmeasuredInput(request: CanonicalRequest): boolean {
  for (const message of request.messages) {
    const parts = message.role === 'tool' ? message.content.flatMap((result) => result.content) : message.content;
    for (const part of parts) {
      if (part.type === 'audio' || part.type === 'image') return true;
      if (part.type === 'file' && part.source.kind !== 'text') return true;
    }
  }
  return false;
}
