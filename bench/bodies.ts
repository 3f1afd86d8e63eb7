// Request bodies the load generators send, and the upstream's answers. Shared by every bench process.

/** The key the gateway accepts in the bench (auth runs on every request, as in production). */
export const BENCH_KEY = 'sk-bench-0123456789abcdef0123456789abcdef';
/** The model ids callers send; the gateway maps each to a provider and to the upstream's id. */
export const BENCH_MODEL = 'bench-model'; // on the `openai` provider (Chat Completions upstream)
export const BENCH_RESPONSES_MODEL = 'bench-responses'; // on `openai-responses`
export const BENCH_ANTHROPIC_MODEL = 'bench-anthropic'; // on `anthropic`
export const UPSTREAM_MODEL = 'gpt-bench';

/** A paragraph of prompt (~600 bytes), so parsing and validation see a realistic body. */
const prompt =
  'You are reviewing a pull request that changes how a payment service retries failed charges. ' +
  'Summarise the change in three sentences, point out one risk around idempotency keys, and ' +
  'suggest a test that would catch a double charge when the network drops after the provider ' +
  'accepted the request but before the service recorded it. Keep the answer under 120 words ' +
  'and do not use bullet points; the reader is an on-call engineer reading on a phone at 3am.';

/**
 * A client protocol and the upstream it reaches: `chat` (Chat → openai, same protocol), `messages`
 * (Messages → openai Chat, translated both ways), `responses` (Responses → openai-responses, same
 * protocol), `anthropic` (Messages → anthropic, same protocol).
 */
export type BenchPath = 'chat' | 'messages' | 'responses' | 'anthropic';
export const benchPaths: readonly BenchPath[] = ['chat', 'messages', 'responses', 'anthropic'];

/** The endpoint each path calls. */
export const endpointOf: Record<BenchPath, string> = {
  chat: '/v1/chat/completions',
  messages: '/v1/messages',
  responses: '/v1/responses',
  anthropic: '/v1/messages',
};

/** The protocol each path's answers are in. */
export const protocolOf: Record<BenchPath, 'chat' | 'messages' | 'responses'> = {
  chat: 'chat',
  messages: 'messages',
  responses: 'responses',
  anthropic: 'messages',
};

/** Text each protocol's answer contains, JSON and streamed (its object type, or its last event). */
export const expectedAnswerText: Record<'chat' | 'messages' | 'responses', { json: string; stream: string }> = {
  chat: { json: 'chat.completion', stream: '[DONE]' },
  messages: { json: '"type":"message"', stream: 'message_stop' },
  responses: { json: '"object":"response"', stream: 'response.completed' },
};

/** A request body for a path, in its client's protocol. */
export function requestBody(path: BenchPath, stream: boolean): string {
  if (path === 'responses') {
    return JSON.stringify({
      model: BENCH_RESPONSES_MODEL,
      instructions: 'You are a careful senior engineer.',
      input: [{ role: 'user', content: prompt }],
      max_output_tokens: 256,
      temperature: 0.2,
      ...(stream ? { stream: true } : {}),
    });
  }
  if (path === 'chat') {
    return JSON.stringify({
      model: BENCH_MODEL,
      messages: [
        { role: 'system', content: 'You are a careful senior engineer.' },
        { role: 'user', content: prompt },
      ],
      max_tokens: 256,
      temperature: 0.2,
      ...(stream ? { stream: true } : {}),
    });
  }
  return JSON.stringify({
    model: path === 'anthropic' ? BENCH_ANTHROPIC_MODEL : BENCH_MODEL,
    system: 'You are a careful senior engineer.',
    messages: [{ role: 'user', content: prompt }],
    max_tokens: 256,
    temperature: 0.2,
    ...(stream ? { stream: true } : {}),
  });
}

/** Headers every bench request carries (the passthrough ignores them; the gateway checks them). */
export function requestHeaders(path: BenchPath): Record<string, string> {
  return {
    'content-type': 'application/json',
    authorization: `Bearer ${BENCH_KEY}`,
    ...(protocolOf[path] === 'messages' ? { 'anthropic-version': '2023-06-01' } : {}),
  };
}
