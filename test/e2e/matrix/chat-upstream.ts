import type { ProviderAdapter } from '../../../src/providers/types.js';
import { MATRIX, type MatrixUpstream } from '../../helpers/matrix.js';
import { sseText, type MockReply, type RecordedRequest } from '../../helpers/mock-upstream.js';

type Message = { role: string; content: unknown; tool_call_id?: string };
type Body = { messages: Message[]; tools?: Array<{ function: { name: string } }>; stream?: boolean };

/** OpenAI-style call id; Mistral's are 9 alphanumerics. */
export const CHAT_TOOL_CALL_ID = 'call_MatrixWeather01';

const usage = {
  prompt_tokens: MATRIX.usage.input,
  completion_tokens: MATRIX.usage.output,
  total_tokens: MATRIX.usage.input + MATRIX.usage.output,
  prompt_tokens_details: { cached_tokens: MATRIX.usage.cached },
  completion_tokens_details: { reasoning_tokens: 0 },
};
const head = { id: 'chatcmpl-matrix', object: 'chat.completion.chunk', created: 1730000000, model: 'upstream-model' };
const toolArguments = JSON.stringify(MATRIX.toolArguments);

function json(message: Record<string, unknown>, finish: string): MockReply {
  return {
    json: {
      ...head,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', refusal: null, ...message }, logprobs: null, finish_reason: finish }],
      usage,
    },
  };
}

/** The OpenAI transcript: role chunk, content or tool-call fragments, finish chunk, usage chunk, [DONE]; split every 2 bytes. */
function stream(deltas: Record<string, unknown>[], finish: string): MockReply {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    data: { ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], usage: null },
  });
  const frames = [
    ...deltas.map((delta) => chunk(delta)),
    chunk({}, finish),
    { data: { ...head, choices: [], usage } },
    { data: '[DONE]' },
  ];
  return { sse: sseText(frames), chunkBytes: 2 };
}

function halves(text: string): [string, string] {
  const characters = Array.from(text);
  const cut = Math.ceil(characters.length / 2);
  return [characters.slice(0, cut).join(''), characters.slice(cut).join('')];
}

function textReply(text: string) {
  const [a, b] = halves(text);
  return (streaming: boolean) =>
    streaming
      ? stream([{ role: 'assistant', content: '' }, { content: a }, { content: b }], 'stop')
      : json({ content: text }, 'stop');
}

const toolReply = (id: string) => (streaming: boolean): MockReply => {
  const call = { id, type: 'function', function: { name: MATRIX.toolName, arguments: toolArguments } };
  if (!streaming) return json({ content: null, tool_calls: [call] }, 'tool_calls');
  const [a, b] = halves(toolArguments);
  return stream(
    [
      { role: 'assistant', content: null, tool_calls: [{ index: 0, id, type: 'function', function: { name: MATRIX.toolName, arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: a } }] },
      { tool_calls: [{ index: 0, function: { arguments: b } }] },
    ],
    'tool_calls',
  );
};

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part: { text?: string }) => part.text ?? '').join('')
      : '';

/** A matrix upstream speaking Chat Completions (OpenAI or an OpenAI-compatible server). */
export function chatMatrixUpstream(
  name: string,
  createAdapter: (upstreamUrl: string) => ProviderAdapter,
  toolCallId: string = CHAT_TOOL_CALL_ID,
): MatrixUpstream {
  return {
    name,
    createAdapter,
    upstreamModel: 'upstream-model',
    isStream: (request: RecordedRequest) => (request.body as Body).stream === true,
    replies: { text: textReply(MATRIX.text), toolCall: toolReply(toolCallId), afterTool: textReply(MATRIX.afterToolText) },
    toolCallId,
    read: {
      systemText: (body) =>
        (body as Body).messages
          .filter((message) => message.role === 'system' || message.role === 'developer')
          .map((message) => textOf(message.content))
          .join('\n'),
      toolNames: (body) => ((body as Body).tools ?? []).map((tool) => tool.function.name),
      toolResult: (body) => {
        const message = (body as Body).messages.find((candidate) => candidate.role === 'tool');
        return message === undefined ? undefined : { id: message.tool_call_id, text: textOf(message.content) };
      },
      images: (body) => {
        const user = (body as Body).messages.filter((message) => message.role === 'user').at(-1);
        const parts = Array.isArray(user?.content) ? (user.content as Array<{ type: string; image_url?: { url: string } }>) : [];
        return parts
          .filter((part) => part.type === 'image_url')
          .map((part) => (part.image_url?.url.startsWith('data:') ? 'base64' : 'url'));
      },
    },
  };
}
