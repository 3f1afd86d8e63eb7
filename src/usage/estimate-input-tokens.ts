import type { CanonicalMessage, CanonicalRequest } from '../canonical/index.js';

/** Images and documents are counted at a typical size: their pixels or pages are not known here. */
const TOKENS_PER_MEDIA_PART = 1_600;
/** Role markers and separators around each message, as chat templates add them. */
const TOKENS_PER_MESSAGE = 4;

/** Characters per token where the tokenizer is not installed: about right for English text. */
const CHARS_PER_TOKEN = 4;

type CountTokens = (text: string) => number;
let tokenizer: Promise<CountTokens> | undefined;

const countByLength: CountTokens = (text) => Math.ceil(text.length / CHARS_PER_TOKEN);

/**
 * The o200k_base tokenizer, loaded on first use (it is large, and most gateways never count).
 * `gpt-tokenizer` is an optional dependency: where it is not installed (`npm install
 * --omit=optional`), text counts as one token per CHARS_PER_TOKEN characters instead.
 */
function loadTokenizer(): Promise<CountTokens> {
  tokenizer ??= import('gpt-tokenizer/encoding/o200k_base').then(
    (module): CountTokens =>
      (text) =>
        module.countTokens(text),
    (error: unknown) => {
      if ((error as { code?: unknown } | undefined)?.code === 'ERR_MODULE_NOT_FOUND') return countByLength;
      throw error;
    },
  );
  return tokenizer;
}

/** Longest run without whitespace tokenized whole: BPE over one long "word" costs its length squared. */
const LONGEST_WORD = 1_000;
const LONG_WORD = new RegExp(`\\S{${LONGEST_WORD}}`);
const LONG_WORDS = new RegExp(`(\\S{${LONGEST_WORD}})`);
/** Text tokenized between two turns of the event loop: a 2 MB prompt must not hold up other requests. */
const PIECE = 64 * 1024;

/** `text` in pieces of about PIECE characters, cut at whitespace where there is some. */
function* piecesOf(text: string): Generator<string> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + PIECE, text.length);
    if (end < text.length) {
      const space = Math.max(text.lastIndexOf(' ', end), text.lastIndexOf('\n', end));
      if (space > start) end = space;
    }
    yield text.slice(start, end);
    start = end;
  }
}

/**
 * Counts `text` a piece at a time, yielding to the event loop between pieces, with runs of more
 * than LONGEST_WORD non-space characters counted in slices (off by at most a token per slice,
 * where BPE would merge across the cut).
 */
async function countInPieces(count: CountTokens, text: string): Promise<number> {
  if (text.length <= PIECE && !LONG_WORD.test(text)) return count(text);
  let total = 0;
  let first = true;
  for (const piece of piecesOf(text)) {
    if (!first) await new Promise((resolve) => setImmediate(resolve));
    first = false;
    if (!LONG_WORD.test(piece)) total += count(piece);
    else for (const part of piece.split(LONG_WORDS)) if (part !== '') total += count(part);
  }
  return total;
}

function messageText(message: CanonicalMessage): { text: string; media: number } {
  let text = '';
  let media = 0;
  const parts = message.role === 'tool' ? message.content.flatMap((result) => result.content) : message.content;
  for (const part of parts) {
    if (part.type === 'text' || part.type === 'reasoning' || part.type === 'refusal') text += `${part.text}\n`;
    else if (part.type === 'tool-call') text += `${part.name} ${part.arguments}\n`;
    else if (part.type === 'provider-defined') text += `${JSON.stringify(part.data)}\n`;
    else media += 1;
  }
  return { text, media };
}

/**
 * An estimate of a request's input tokens with OpenAI's o200k_base tokenizer (or, where the
 * optional `gpt-tokenizer` is not installed, 4 characters per token). Providers count with their
 * own tokenizers, so this is close, not exact: the gateway uses it only when the provider cannot
 * count (`ProviderAdapter.countTokens`).
 */
export async function estimateInputTokens(request: CanonicalRequest): Promise<number> {
  const count = await loadTokenizer();
  let text = (request.system ?? []).map((part) => part.text).join('\n');
  let media = 0;
  for (const message of request.messages) {
    const part = messageText(message);
    text += `\n${part.text}`;
    media += part.media;
  }
  if (request.tools?.length) text += `\n${JSON.stringify(request.tools)}`;
  return (await countInPieces(count, text)) + media * TOKENS_PER_MEDIA_PART + request.messages.length * TOKENS_PER_MESSAGE;
}

/** Below the o200k_base count by this much, another tokenizer (Gemini's, an open model's) is taken to count no fewer. */
const FLOOR_SHARE = 0.9;
/** Above the o200k_base count by this much, no current tokenizer counts more (Claude's count up to about a third more). */
const CEILING_SHARE = 1.4;
/** Without the tokenizer: no text is denser than this many characters per token (o200k averages about 4 on prose). */
const MOST_CHARS_PER_TOKEN = 8;
/** Role markers and separators per message, at most. */
const MOST_TOKENS_PER_MESSAGE = 8;
/** An image, audio clip or document whose size is not known here, at most (inputTokenBound's allowance). */
const MOST_TOKENS_PER_MEDIA_PART = 2_000;

/** Text every provider counts: no earlier reasoning (Anthropic drops it from the window), no media. */
function countedText(request: CanonicalRequest): { text: string; reasoning: string; media: number } {
  let text = (request.system ?? []).map((part) => part.text).join('\n');
  let reasoning = '';
  let media = 0;
  for (const message of request.messages) {
    const parts = message.role === 'tool' ? message.content.flatMap((result) => result.content) : message.content;
    for (const part of parts) {
      if (part.type === 'text' || part.type === 'refusal') text += `\n${part.text}`;
      else if (part.type === 'reasoning') reasoning += `\n${part.text}`;
      else if (part.type === 'tool-call') text += `\n${part.name} ${part.arguments}`;
      else if (part.type === 'provider-defined') text += `\n${JSON.stringify(part.data)}`;
      else media += 1;
    }
  }
  for (const tool of request.tools ?? []) {
    if (tool.type === 'function')
      text += `\n${tool.name} ${tool.description ?? ''} ${tool.parameters === undefined ? '' : JSON.stringify(tool.parameters)}`;
  }
  return { text, reasoning, media };
}

/** What a request's input is known to cost, in tokens, whichever the provider's tokenizer. */
export interface InputTokenRange {
  /** No provider counts fewer: the o200k_base count of the text less 10%, with images and documents as nothing. */
  readonly atLeast: number;
  /** No provider counts more: the o200k_base count plus 40%, with generous allowances for media and message markers. */
  readonly atMost: number;
}

/**
 * Bounds on a request's input tokens, for refusing a request too long for its model's window
 * without false refusals (`atLeast`), and for leaving room for the answer (`atMost`). Counted with
 * the o200k_base tokenizer (where it is not installed, by length: 8 characters per token at least,
 * one per character at most). Providers count with their own tokenizers, hence the margins.
 */
export async function estimateInputTokenRange(request: CanonicalRequest): Promise<InputTokenRange> {
  const count = await loadTokenizer();
  const { text, reasoning, media } = countedText(request);
  const fixed = media * MOST_TOKENS_PER_MEDIA_PART + request.messages.length * MOST_TOKENS_PER_MESSAGE;
  if (count === countByLength) {
    return { atLeast: Math.floor(text.length / MOST_CHARS_PER_TOKEN), atMost: text.length + reasoning.length + fixed };
  }
  const tokens = await countInPieces(count, text);
  const reasoningTokens = reasoning === '' ? 0 : await countInPieces(count, reasoning);
  return { atLeast: Math.floor(tokens * FLOOR_SHARE), atMost: Math.ceil((tokens + reasoningTokens) * CEILING_SHARE) + fixed };
}
