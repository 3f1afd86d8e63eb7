// A custom provider: a "model" that answers with the caller's last message in capitals.
// In your own project: import { customErrorCode, GatewayError, type ProviderAdapter, … } from 'switchyard-gateway';
import { customErrorCode, GatewayError, type CanonicalRequest, type CanonicalStreamEvent, type ProviderAdapter } from '../../src/index.js';

function lastUserText(request: CanonicalRequest): string {
  const last = request.messages.findLast((message) => message.role === 'user');
  if (last?.role !== 'user') return '';
  return last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ');
}

function answer(request: CanonicalRequest): string {
  const text = lastUserText(request);
  if (text.trim() === '') {
    throw new GatewayError({
      kind: 'invalid_request',
      code: customErrorCode('NOTHING_TO_SHOUT'),
      message: 'Send a user message with some text.',
    });
  }
  return text.toUpperCase();
}

const usageOf = (request: CanonicalRequest, text: string) => ({
  inputTokens: Math.ceil(lastUserText(request).length / 4),
  outputTokens: Math.ceil(text.length / 4),
});

export const shoutProvider: ProviderAdapter = {
  specificationVersion: 'v1',
  id: 'shout',
  capabilities: () => ({ tools: false, images: false, files: false, audio: false, reasoning: false }),

  async generate(request, context) {
    const text = answer(request);
    return {
      id: `shout_${context.requestId}`,
      model: request.model,
      content: [{ type: 'text', text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: usageOf(request, text),
    };
  },

  async *stream(request, context): AsyncIterable<CanonicalStreamEvent> {
    const text = answer(request); // fails before the first event: the caller gets a real 400
    yield { type: 'start', id: `shout_${context.requestId}`, model: request.model };
    yield { type: 'text-start', id: 'text' };
    for (const word of text.match(/\S+\s*/g) ?? []) {
      if (context.signal.aborted) return; // the client went away: stop working
      yield { type: 'text-delta', id: 'text', delta: word };
    }
    yield { type: 'text-end', id: 'text' };
    yield { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usageOf(request, text) };
  },
};
