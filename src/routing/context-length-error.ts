import { GatewayError, type ProtocolName } from '../canonical/index.js';

/**
 * The 400 for a request whose input alone is longer than the model's context window, worded as
 * the caller's own API words it — clients act on it (Claude Code compacts its conversation on
 * "prompt is too long"; OpenAI clients read the `context_length_exceeded` code).
 */
export function contextLengthError(protocol: ProtocolName, modelId: string, tokens: number, window: number): GatewayError {
  if (protocol === 'messages') {
    return new GatewayError({
      code: 'CONTEXT_LENGTH_EXCEEDED',
      message: `prompt is too long: ${tokens} tokens > ${window} maximum`,
    });
  }
  return new GatewayError({
    code: 'CONTEXT_LENGTH_EXCEEDED',
    param: protocol === 'chat' ? 'messages' : 'input',
    message:
      `This model's maximum context length is ${window} tokens. However, your messages resulted in at least ${tokens} tokens ` +
      `(the model '${modelId}'). Please reduce the length of the messages.`,
  });
}
