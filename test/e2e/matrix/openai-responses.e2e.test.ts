import { createOpenAIResponsesProvider } from '../../../src/providers/openai-responses/index.js';
import { MATRIX, runMatrix } from '../../helpers/matrix.js';
import { sseText, type MockReply, type RecordedRequest } from '../../helpers/mock-upstream.js';

type Item = Record<string, unknown>;
type Body = { instructions?: string; input: Item[]; tools?: Item[]; stream?: boolean };

const CALL_ID = 'call_MatrixWeather01';
const usage = {
  input_tokens: MATRIX.usage.input,
  input_tokens_details: { cached_tokens: MATRIX.usage.cached },
  output_tokens: MATRIX.usage.output,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: MATRIX.usage.input + MATRIX.usage.output,
};

const messageItem = (text: string): Item => ({
  type: 'message',
  id: 'msg_matrix1',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
});
const callItem: Item = {
  type: 'function_call',
  id: 'fc_matrix1',
  call_id: CALL_ID,
  name: MATRIX.toolName,
  arguments: JSON.stringify(MATRIX.toolArguments),
  status: 'completed',
};

const response = (status: string, output: Item[], withUsage: boolean): Item => ({
  id: 'resp_matrix1',
  object: 'response',
  created_at: 1741476542,
  status,
  model: 'gpt-5-2025-08-07',
  output,
  error: null,
  incomplete_details: null,
  instructions: null,
  metadata: {},
  parallel_tool_calls: true,
  temperature: 1,
  top_p: 1,
  tool_choice: 'auto',
  tools: [],
  usage: withUsage ? usage : null,
});

/** Halves of a string, cut between characters (never inside one). */
function halves(whole: string): [string, string] {
  const characters = Array.from(whole);
  const cut = Math.ceil(characters.length / 2);
  return [characters.slice(0, cut).join(''), characters.slice(cut).join('')];
}

/** The OpenAI SSE transcript of one output item, every delta in two halves, split every 5 bytes. */
function stream(item: Item): MockReply {
  const events: Item[] = [
    { type: 'response.created', response: response('in_progress', [], false) },
    { type: 'response.in_progress', response: response('in_progress', [], false) },
  ];
  const at = { output_index: 0, item_id: item.id };
  if (item.type === 'message') {
    const text = String((item.content as Item[])[0]?.text);
    const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
    events.push(
      { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', ...at, content_index: 0, part },
      ...halves(text).map((delta) => ({ type: 'response.output_text.delta', ...at, content_index: 0, delta, logprobs: [] })),
      { type: 'response.output_text.done', ...at, content_index: 0, text, logprobs: [] },
      { type: 'response.content_part.done', ...at, content_index: 0, part: { ...part, text } },
    );
  } else {
    const args = String(item.arguments);
    events.push(
      { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } },
      ...halves(args).map((delta) => ({ type: 'response.function_call_arguments.delta', ...at, delta })),
      { type: 'response.function_call_arguments.done', ...at, name: item.name, arguments: args },
    );
  }
  events.push(
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: response('completed', [item], true) },
  );
  const frames = events.map((event, sequence) => ({ event: String(event.type), data: { ...event, sequence_number: sequence } }));
  return { sse: sseText(frames), chunkBytes: 5 };
}

const answer = (item: Item) => (streaming: boolean): MockReply => (streaming ? stream(item) : { json: response('completed', [item], true) });

const lastUserMessage = (body: unknown) => (body as Body).input.filter((item) => item.role === 'user').at(-1);

runMatrix({
  name: 'openai-responses',
  createAdapter: (upstreamUrl) => createOpenAIResponsesProvider({ apiKey: 'sk-openai-upstream-key', baseURL: `${upstreamUrl}/v1` }),
  upstreamModel: 'gpt-5',
  isStream: (request: RecordedRequest) => (request.body as Body).stream === true,
  replies: {
    text: answer(messageItem(MATRIX.text)),
    toolCall: answer(callItem),
    afterTool: answer(messageItem(MATRIX.afterToolText)),
  },
  toolCallId: CALL_ID,
  read: {
    systemText: (body) => {
      const { instructions, input } = body as Body;
      const items = input.filter((item) => item.role === 'system' || item.role === 'developer');
      const texts = items.flatMap((item) => (Array.isArray(item.content) ? (item.content as Item[]).map((part) => String(part.text)) : [String(item.content)]));
      return [instructions ?? '', ...texts].join('\n');
    },
    toolNames: (body) => ((body as Body).tools ?? []).map((tool) => String(tool.name)),
    toolResult: (body) => {
      const item = (body as Body).input.filter((candidate) => candidate.type === 'function_call_output').at(-1);
      return item === undefined ? undefined : { id: String(item.call_id), text: typeof item.output === 'string' ? item.output : JSON.stringify(item.output) };
    },
    images: (body) =>
      ((lastUserMessage(body)?.content as Item[] | undefined) ?? [])
        .filter((part) => part.type === 'input_image')
        .map((part) => (String(part.image_url).startsWith('data:') ? 'base64' : 'url')),
  },
});
