// Request bodies the load generators send, and the upstream's answers. Shared by every bench process.

/** The key the gateway accepts in the bench (auth runs on every request, as in production). */
export const BENCH_KEY = 'sk-bench-0123456789abcdef0123456789abcdef';
/** The model id callers send; the gateway maps it to the upstream's id. */
export const BENCH_MODEL = 'bench-model';
export const UPSTREAM_MODEL = 'gpt-bench';

/** A paragraph of prompt (~600 bytes), so parsing and validation see a realistic body. */
const prompt =
  'You are reviewing a pull request that changes how a payment service retries failed charges. ' +
  'Summarise the change in three sentences, point out one risk around idempotency keys, and ' +
  'suggest a test that would catch a double charge when the network drops after the provider ' +
  'accepted the request but before the service recorded it. Keep the answer under 120 words ' +
  'and do not use bullet points; the reader is an on-call engineer reading on a phone at 3am.';

export type BenchPath = 'chat' | 'messages';

/** The endpoint each path calls. */
export const endpointOf: Record<BenchPath, string> = {
  chat: '/v1/chat/completions',
  messages: '/v1/messages',
};

/** A request body for a path: Chat Completions (same protocol as the upstream) or Anthropic Messages (translated). */
export function requestBody(path: BenchPath, stream: boolean): string {
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
    model: BENCH_MODEL,
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
    ...(path === 'messages' ? { 'anthropic-version': '2023-06-01' } : {}),
  };
}
