// A guardrail stage: refuses (or redacts) payment card numbers in a request's text before any
// limit is spent or any provider sees it. In your own project:
//   import { GatewayError, type Stage } from 'switchyard-gateway';
import { customErrorCode, GatewayError, type CanonicalRequest, type Stage, type TextPart } from '../../src/index.js';

/** 13 to 19 digits, optionally grouped by single spaces or dashes. */
const CANDIDATE = /\b\d(?:[ -]?\d){12,18}\b/g;

/** The Luhn checksum every card number passes (and most other long digit runs fail). */
function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

const isCardNumber = (candidate: string) => passesLuhn(candidate.replace(/[ -]/g, ''));

/** Every text part of the request a person or tool wrote: system, messages, tool results. */
function* textParts(request: CanonicalRequest): Generator<TextPart> {
  for (const part of request.system ?? []) yield part;
  for (const message of request.messages) {
    if (message.role === 'tool') {
      for (const result of message.content) for (const part of result.content) if (part.type === 'text') yield part;
    } else {
      for (const part of message.content) if (part.type === 'text') yield part;
    }
  }
}

export interface CardNumberGuardrailOptions {
  /** `refuse` answers 400 `card_number_in_input`; `redact` replaces each number and goes on. Default `refuse`. */
  mode?: 'refuse' | 'redact';
}

export const REDACTED = '[card number removed]';

export function cardNumberGuardrail({ mode = 'refuse' }: CardNumberGuardrailOptions = {}): Stage {
  return {
    name: 'card-number-guardrail',
    // Before admission: a refused request spends no rate limit or budget.
    position: { before: 'admit' },
    // count_tokens too: what may not be sent may not be counted upstream either.
    endpoints: ['generation', 'count_tokens'],
    before(context) {
      let redacted = 0;
      for (const part of textParts(context.request)) {
        const found = part.text.match(CANDIDATE)?.filter(isCardNumber) ?? [];
        if (found.length === 0) continue;
        if (mode === 'refuse') {
          throw new GatewayError({
            kind: 'invalid_request',
            code: customErrorCode('card_number_in_input'),
            status: 400,
            message: 'The request contains what looks like a payment card number; remove it and send the request again.',
          });
        }
        // Parts are the request's own objects: replaced, not changed, so nothing else sees the number.
        redacted += found.length;
      }
      if (redacted === 0) return;
      context.request = redactRequest(context.request);
      context.setAnswerHeader('x-guardrail-redacted', String(redacted));
    },
  };
}

/** The request with each card number in its text replaced. */
function redactRequest(request: CanonicalRequest): CanonicalRequest {
  const redact = (part: TextPart): TextPart => ({
    ...part,
    text: part.text.replace(CANDIDATE, (candidate) => (isCardNumber(candidate) ? REDACTED : candidate)),
  });
  return {
    ...request,
    ...(request.system === undefined ? {} : { system: request.system.map(redact) }),
    messages: request.messages.map((message) => {
      if (message.role === 'tool') {
        return {
          ...message,
          content: message.content.map((result) => ({
            ...result,
            content: result.content.map((part) => (part.type === 'text' ? redact(part) : part)),
          })),
        };
      }
      if (message.role === 'system') return { ...message, content: message.content.map(redact) };
      if (message.role === 'user')
        return { ...message, content: message.content.map((part) => (part.type === 'text' ? redact(part) : part)) };
      return { ...message, content: message.content.map((part) => (part.type === 'text' ? redact(part) : part)) };
    }),
  };
}
