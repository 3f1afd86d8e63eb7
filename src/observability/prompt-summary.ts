import type { CanonicalMessage, CanonicalRequest, ToolResultContent } from '../canonical/index.js';

/** Any part a prompt can hold. */
type PromptPart = CanonicalMessage['content'][number] | ToolResultContent;

/**
 * How much of the prompt the request log shows (`requestLog.prompts`): `'lengths'` only each
 * message's role and size (nothing the caller wrote), `'text'` the text with key-like strings masked.
 */
export type PromptLogging = 'lengths' | 'text';

/** One message of the prompt, as the request log shows it. */
export interface LoggedMessage {
  readonly role: string;
  /** Characters of text (tool arguments and results included). */
  readonly chars: number;
  /** Parts that are not text (images, files, audio, provider items). */
  readonly otherParts?: number;
  /** With `'text'`: the text, key-like strings masked, cut at `TEXT_MAX` characters. */
  readonly text?: string;
}

/** Longest text kept per message: a log line stays a line. */
const TEXT_MAX = 2_000;

/**
 * Strings that look like credentials: provider keys (`sk-…`, `sk-ant-…`, `AIza…`, `AKIA…`, GitHub and
 * Slack tokens), bearer tokens, JWTs, and any long run of letters and digits that mixes both.
 */
const SECRET =
  /\b(?:sk-[A-Za-z0-9_-]{12,}|AIza[0-9A-Za-z_-]{30,}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}|xox[abpr]-[A-Za-z0-9-]{10,}|eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,})|\bBearer\s+[^\s"']+|\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{32,}/g;

/** `text` with every key-like string replaced by `[REDACTED]`. */
export function maskSecrets(text: string): string {
  return text.replace(SECRET, '[REDACTED]');
}

interface Collected {
  text: string;
  other: number;
}

function collect(parts: readonly PromptPart[], into: Collected): void {
  for (const part of parts) {
    if (part.type === 'text' || part.type === 'reasoning' || part.type === 'refusal') into.text += part.text;
    else if (part.type === 'tool-call') into.text += part.arguments;
    else if (part.type === 'tool-result') collect(part.content, into);
    else into.other += 1;
  }
}

function messageOf(role: string, parts: readonly PromptPart[], mode: PromptLogging): LoggedMessage {
  const collected: Collected = { text: '', other: 0 };
  collect(parts, collected);
  const shown =
    mode === 'text' ? maskSecrets(collected.text.length > TEXT_MAX ? `${collected.text.slice(0, TEXT_MAX)}…` : collected.text) : undefined;
  return {
    role,
    chars: collected.text.length,
    ...(collected.other > 0 ? { otherParts: collected.other } : {}),
    ...(shown === undefined ? {} : { text: shown }),
  };
}

/** The prompt of `request` as the request log shows it: the system text first, then each message. */
export function summarisePrompt(request: CanonicalRequest, mode: PromptLogging): LoggedMessage[] {
  const messages: LoggedMessage[] = [];
  if (request.system !== undefined && request.system.length > 0) messages.push(messageOf('system', request.system, mode));
  for (const message of request.messages as readonly CanonicalMessage[]) messages.push(messageOf(message.role, message.content, mode));
  return messages;
}
