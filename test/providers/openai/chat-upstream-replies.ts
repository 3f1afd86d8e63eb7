import type { ContractScenario } from '../../../src/testing/index.js';
import type { MockReply, RecordedRequest } from '../../helpers/mock-upstream.js';
import { jsonFixture, sseFixture } from '../../helpers/fixtures.js';

const textAnswer = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1730000000,
  model: 'gpt-4o-2024-08-06',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Héllo wörld 🌍!', refusal: null }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 },
};

const isStream = (request: RecordedRequest) =>
  typeof request.body === 'object' && request.body !== null && (request.body as { stream?: unknown }).stream === true;

/**
 * How a Chat Completions upstream answers each contract scenario, streaming or not, from the
 * recorded fixtures. Streams are sent one byte at a time (splitting multi-byte characters).
 */
export function chatContractReply(scenario: ContractScenario): (request: RecordedRequest) => MockReply {
  return (request) => {
    const stream = isStream(request);
    switch (scenario) {
      case 'text':
        return stream ? { sse: sseFixture('chat-completions', 'upstream-text'), chunkBytes: 1 } : { json: textAnswer };
      case 'tool-call':
        return stream
          ? { sse: sseFixture('chat-completions', 'upstream-tool-call'), chunkBytes: 7 }
          : { json: jsonFixture('chat-completions', 'upstream-response-tool-call') };
      case 'rate-limit':
        return {
          status: 429,
          headers: { 'retry-after': '3' },
          json: { error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
        };
      case 'bad-request':
        return {
          status: 400,
          json: {
            error: {
              message: "Invalid value for 'temperature'.",
              type: 'invalid_request_error',
              param: 'temperature',
              code: 'invalid_value',
            },
          },
        };
      case 'hang':
        return { hang: true, sse: `${sseFixture('chat-completions', 'upstream-text').split('\n\n').slice(0, 2).join('\n\n')}\n\n` };
    }
  };
}
