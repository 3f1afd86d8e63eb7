import { sseText, startMockUpstream, type MockUpstream, type RecordedRequest } from './mock-upstream.js';

/** A plain answer "ok" in each upstream protocol, non-streamed. */
export const chatAnswer = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'up',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
};
export const messagesAnswer = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'up',
  content: [{ type: 'text', text: 'ok' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 5, output_tokens: 1 },
};
export const responsesAnswer = {
  id: 'resp_1',
  object: 'response',
  created_at: 1,
  status: 'completed',
  model: 'up',
  output: [
    {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'ok', annotations: [] }],
    },
  ],
  usage: { input_tokens: 5, output_tokens: 1, total_tokens: 6 },
};
export const geminiAnswer = {
  candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 1, totalTokenCount: 6 },
  modelVersion: 'up',
};

/** "ok" as a Chat stream, with usage. */
const chatStream = sseText([
  {
    data: {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'up',
      choices: [{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: null }],
    },
  },
  {
    data: {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'up',
      choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
    },
  },
  { data: { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'up', choices: [], usage: chatAnswer.usage } },
  { data: '[DONE]' },
]);

/** "ok" in the protocol the request's path speaks: Chat (streamed or not), Responses, Messages or Gemini. */
export function answerFor(request: RecordedRequest) {
  if (request.url.includes('/chat/completions'))
    return (request.body as { stream?: boolean }).stream ? { sse: chatStream } : { json: chatAnswer };
  if (request.url.includes('/responses')) return { json: responsesAnswer };
  if (request.url.includes('/messages')) return { json: messagesAnswer };
  return { json: geminiAnswer };
}

/** A loopback upstream answering "ok" in whichever protocol each request speaks. */
export async function startProtocolUpstream(): Promise<MockUpstream> {
  const upstream = await startMockUpstream();
  upstream.reply(answerFor);
  return upstream;
}
