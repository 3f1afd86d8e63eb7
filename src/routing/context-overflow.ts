import type { GatewayError } from '../canonical/index.js';

/**
 * How providers say a request does not fit the model's context window: OpenAI's code, Anthropic's
 * "prompt is too long", Gemini's "input token count … exceeds", vLLM's "maximum context length".
 */
const OVERFLOW_MESSAGE =
  /context[ _-]?(length|window|limit)|prompt is too long|maximum context|input token count .*exceeds|too many (input )?tokens|exceeds? the (model's )?(context|maximum number of tokens)/i;

/** Whether an upstream error says the request is longer than the model's context window. */
export function isContextOverflow(error: GatewayError): boolean {
  if (error.code === 'CONTEXT_LENGTH_EXCEEDED') return true;
  if (error.status !== 400 && error.status !== 413) return false;
  return OVERFLOW_MESSAGE.test(error.message);
}
