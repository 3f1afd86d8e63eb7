import { createOpenAIResponsesProvider } from '../../../src/providers/openai-responses/index.js';
import { MATRIX, type MatrixAnswer, type MatrixUpstream } from '../../helpers/matrix/index.js';
import { sseText, type MockReply, type RecordedRequest } from '../../helpers/mock-upstream.js';

type Item = Record<string, unknown>;
type Body = { instructions?: string; input: Item[]; tools?: Item[]; stream?: boolean } & Record<string, unknown>;

const CALL_IDS = ['call_MatrixWeather01', 'call_MatrixWeather02'] as const;
const ENCRYPTED = 'gAAAAABmatrix-encrypted-reasoning==';

const usageOf = (answer: MatrixAnswer) => ({
  input_tokens: MATRIX.usage.input,
  input_tokens_details: { cached_tokens: MATRIX.usage.cached },
  output_tokens: MATRIX.usage.output,
  output_tokens_details: { reasoning_tokens: answer.reasoning ? MATRIX.usage.reasoning : 0 },
  total_tokens: MATRIX.usage.input + MATRIX.usage.output,
});

function itemsOf(answer: MatrixAnswer): Item[] {
  const items: Item[] = [];
  if (answer.reasoning) {
    items.push({
      type: 'reasoning',
      id: 'rs_matrix1',
      summary: [{ type: 'summary_text', text: MATRIX.reasoning }],
      encrypted_content: ENCRYPTED,
    });
  }
  if (answer.text !== undefined) {
    items.push({
      type: 'message',
      id: 'msg_matrix1',
      status: answer.finish === 'length' ? 'incomplete' : 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: answer.text, annotations: [], logprobs: [] }],
    });
  }
  (answer.toolCalls ?? []).forEach((args, index) =>
    items.push({
      type: 'function_call',
      id: `fc_matrix${index + 1}`,
      call_id: CALL_IDS[index],
      name: MATRIX.toolName,
      arguments: JSON.stringify(args),
      status: 'completed',
    }),
  );
  return items;
}

const response = (answer: MatrixAnswer, status: string, output: Item[], withUsage: boolean): Item => ({
  id: 'resp_matrix1',
  object: 'response',
  created_at: 1741476542,
  status,
  model: 'gpt-5-2025-08-07',
  output,
  error: null,
  incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
  instructions: null,
  metadata: {},
  parallel_tool_calls: true,
  temperature: 1,
  top_p: 1,
  tool_choice: 'auto',
  tools: [],
  usage: withUsage ? usageOf(answer) : null,
});

/** Halves of a string, cut between characters (never inside one). */
function halves(whole: string): [string, string] {
  const characters = Array.from(whole);
  const cut = Math.ceil(characters.length / 2);
  return [characters.slice(0, cut).join(''), characters.slice(cut).join('')];
}

/** The OpenAI SSE transcript: every item in turn, every delta in two halves, split every 5 bytes. */
function stream(answer: MatrixAnswer, status: string, items: Item[]): MockReply {
  const events: Item[] = [
    { type: 'response.created', response: response(answer, 'in_progress', [], false) },
    { type: 'response.in_progress', response: response(answer, 'in_progress', [], false) },
  ];
  items.forEach((item, outputIndex) => {
    const at = { output_index: outputIndex, item_id: item.id };
    if (item.type === 'reasoning') {
      const text = MATRIX.reasoning;
      const part = { type: 'summary_text', text: '' };
      events.push(
        { type: 'response.output_item.added', output_index: outputIndex, item: { ...item, summary: [], encrypted_content: null } },
        { type: 'response.reasoning_summary_part.added', ...at, summary_index: 0, part },
        ...halves(text).map((delta) => ({ type: 'response.reasoning_summary_text.delta', ...at, summary_index: 0, delta })),
        { type: 'response.reasoning_summary_text.done', ...at, summary_index: 0, text },
        { type: 'response.reasoning_summary_part.done', ...at, summary_index: 0, part: { ...part, text } },
      );
    } else if (item.type === 'message') {
      const text = String((item.content as Item[])[0]?.text);
      const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
      events.push(
        { type: 'response.output_item.added', output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } },
        { type: 'response.content_part.added', ...at, content_index: 0, part },
        ...halves(text).map((delta) => ({ type: 'response.output_text.delta', ...at, content_index: 0, delta, logprobs: [] })),
        { type: 'response.output_text.done', ...at, content_index: 0, text, logprobs: [] },
        { type: 'response.content_part.done', ...at, content_index: 0, part: { ...part, text } },
      );
    } else {
      const args = String(item.arguments);
      events.push(
        { type: 'response.output_item.added', output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } },
        ...halves(args).map((delta) => ({ type: 'response.function_call_arguments.delta', ...at, delta })),
        { type: 'response.function_call_arguments.done', ...at, name: item.name, arguments: args },
      );
    }
    events.push({ type: 'response.output_item.done', output_index: outputIndex, item });
  });
  events.push({
    type: status === 'incomplete' ? 'response.incomplete' : 'response.completed',
    response: response(answer, status, items, true),
  });
  const frames = events.map((event, sequence) => ({ event: String(event.type), data: { ...event, sequence_number: sequence } }));
  return { sse: sseText(frames), chunkBytes: 5 };
}

function reply(answer: MatrixAnswer, streaming: boolean): MockReply {
  const status = answer.finish === 'length' ? 'incomplete' : 'completed';
  const items = itemsOf(answer);
  return streaming ? stream(answer, status, items) : { json: response(answer, status, items, true) };
}

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? (content as Item[]).map((part) => String(part.text ?? '')).join('') : '';
const lastUserMessage = (body: unknown) => (body as Body).input.filter((item) => item.role === 'user').at(-1);
const outputText = (item: Item) => (typeof item.output === 'string' ? item.output : JSON.stringify(item.output));

export const openAIResponsesUpstream: MatrixUpstream = {
  name: 'openai-responses',
  label: 'openai-responses',
  protocol: 'responses',
  notes: {
    parallelTools: 'an output item each',
    toolChoiceRequired: '`required`',
    maxTokens: '`max_output_tokens`',
    jsonSchema: '`text.format`',
    reasoning: '`reasoning.effort`',
    reasoningReplay: 'Responses clients only (`encrypted_content`)',
  },
  createAdapter: (upstreamUrl) => createOpenAIResponsesProvider({ apiKey: 'sk-openai-upstream-key', baseURL: `${upstreamUrl}/v1` }),
  upstreamModel: 'gpt-5',
  isStream: (request: RecordedRequest) => (request.body as Body).stream === true,
  reply,
  toolCallIds: CALL_IDS,
  supports: {
    toolChoice: { auto: true, required: true, named: true, none: true },
    stopSequences: { refused: 'stop sequences' },
    reportsStopSequence: false,
    jsonSchema: true,
    jsonObject: true,
    reasoning: true,
    reasoningTokens: true,
    reasoningReplay: true,
  },
  expect: {
    toolChoice: { auto: 'auto', required: 'required', named: { type: 'function', name: MATRIX.toolName }, none: 'none' },
    // Encrypted reasoning is always asked back (the gateway stores nothing); thinking (Messages) asks for a summary.
    reasoning: {
      chat: { reasoning: { effort: 'high' }, include: ['reasoning.encrypted_content'] },
      responses: { reasoning: { effort: 'high', summary: 'auto' }, include: ['reasoning.encrypted_content'] },
      messages: { reasoning: { effort: 'high', summary: 'auto' }, include: ['reasoning.encrypted_content'] },
    },
    jsonSchema: { format: { type: 'json_schema', schema: MATRIX.schema } },
    jsonObject: { format: { type: 'json_object' } },
    parallelShape: 'function_call function_call function_call_output function_call_output',
    // Encrypted reasoning can only ride a Responses client (as is, with OpenAI's item ids); others send the call alone.
    replayedReasoning: {
      chat: ['function_call'],
      responses: [`reasoning rs_matrix1 ${ENCRYPTED}`, 'function_call fc_matrix1'],
      messages: ['function_call'],
    },
  },
  read: {
    systemText: (body) => {
      const { instructions, input } = body as Body;
      const items = input.filter((item) => item.role === 'system' || item.role === 'developer');
      return [instructions ?? '', ...items.map((item) => textOf(item.content))].join('\n');
    },
    toolNames: (body) => ((body as Body).tools ?? []).map((tool) => String(tool.name)),
    toolResult: (body) => {
      const item = (body as Body).input.filter((candidate) => candidate.type === 'function_call_output').at(-1);
      return item === undefined ? undefined : { id: String(item.call_id), text: outputText(item) };
    },
    images: (body) =>
      ((lastUserMessage(body)?.content as Item[] | undefined) ?? [])
        .filter((part) => part.type === 'input_image')
        .map((part) => (String(part.image_url).startsWith('data:') ? 'base64' : 'url')),
    turns: (body) =>
      (body as Body).input
        .filter((item) => (item.type === undefined || item.type === 'message') && (item.role === 'user' || item.role === 'assistant'))
        .map((item) => ({ role: item.role as 'user' | 'assistant', text: textOf(item.content) })),
    toolTurn: (body) => {
      const input = (body as Body).input;
      const after = input.slice(input.findLastIndex((item) => item.role === 'user') + 1);
      return {
        shape: after.map((item) => String(item.type ?? 'message')).join(' '),
        calls: after
          .filter((item) => item.type === 'function_call')
          .map((item) => ({ id: String(item.call_id), arguments: JSON.parse(String(item.arguments)) })),
        results: after
          .filter((item) => item.type === 'function_call_output')
          .map((item) => ({ id: String(item.call_id), text: outputText(item) })),
      };
    },
    toolChoice: (body) => (body as Body).tool_choice,
    stopSequences: (body) => (body as Body).stop,
    maxTokens: (body) => (body as Body).max_output_tokens,
    responseFormat: (body) => (body as Body).text,
    reasoning: (body) => ({ reasoning: (body as Body).reasoning, include: (body as Body).include }),
    replayedReasoning: (body) => {
      const input = (body as Body).input;
      const after = input
        .slice(input.findLastIndex((item) => item.role === 'user') + 1)
        .filter((item) => item.type !== 'function_call_output');
      // OpenAI's own ids (and encrypted content) are shown; ids the gateway minted are not.
      const own = (id: unknown) => (typeof id === 'string' && id.includes('_matrix') ? [id] : []);
      const encrypted = (item: Item) => (typeof item.encrypted_content === 'string' ? [item.encrypted_content] : []);
      return after.map((item) => [String(item.type), ...own(item.id), ...encrypted(item)].join(' '));
    },
  },
};
