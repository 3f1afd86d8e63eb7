import type { ProviderAdapter } from '../../../src/providers/types.js';
import { MATRIX, type MatrixAnswer, type MatrixUpstream, type Support, type ToolTurn } from '../../helpers/matrix/index.js';
import { sseText, type MockReply, type RecordedRequest } from '../../helpers/mock-upstream.js';

type Message = {
  role: string;
  content: unknown;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; function: { arguments: string } }>;
};
type Body = { messages: Message[]; tools?: Array<{ function: { name: string } }>; stream?: boolean } & Record<string, unknown>;

/** OpenAI-style call ids; Mistral's are 9 alphanumerics. */
export const CHAT_TOOL_CALL_IDS = ['call_MatrixWeather01', 'call_MatrixWeather02'] as const;

const head = { id: 'chatcmpl-matrix', object: 'chat.completion.chunk', created: 1730000000, model: 'upstream-model' };

function usageOf(answer: MatrixAnswer) {
  return {
    prompt_tokens: MATRIX.usage.input,
    completion_tokens: MATRIX.usage.output,
    total_tokens: MATRIX.usage.input + MATRIX.usage.output,
    prompt_tokens_details: { cached_tokens: MATRIX.usage.cached },
    completion_tokens_details: { reasoning_tokens: answer.reasoning ? MATRIX.usage.reasoning : 0 },
  };
}

function halves(text: string): [string, string] {
  const characters = Array.from(text);
  const cut = Math.ceil(characters.length / 2);
  return [characters.slice(0, cut).join(''), characters.slice(cut).join('')];
}

/** The answer as OpenAI (and vLLM-style `reasoning_content`) would send it; streamed: role chunk, halves of everything, finish, usage, [DONE], split every 2 bytes. */
function reply(ids: readonly [string, string]) {
  return (answer: MatrixAnswer, streaming: boolean): MockReply => {
    const calls = (answer.toolCalls ?? []).map((args, index) => ({
      id: ids[index] ?? `call_${index}`,
      type: 'function',
      function: { name: MATRIX.toolName, arguments: JSON.stringify(args) },
    }));
    const finish = answer.finish === 'length' ? 'length' : calls.length > 0 ? 'tool_calls' : 'stop';
    const usage = usageOf(answer);
    if (!streaming) {
      const message = {
        role: 'assistant',
        refusal: null,
        content: answer.text ?? null,
        ...(answer.reasoning ? { reasoning_content: MATRIX.reasoning } : {}),
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      };
      return {
        json: { ...head, object: 'chat.completion', choices: [{ index: 0, message, logprobs: null, finish_reason: finish }], usage },
      };
    }
    const deltas: Record<string, unknown>[] = [{ role: 'assistant', content: answer.text === undefined ? null : '' }];
    if (answer.reasoning) deltas.push(...halves(MATRIX.reasoning).map((piece) => ({ reasoning_content: piece })));
    if (answer.text !== undefined) deltas.push(...halves(answer.text).map((piece) => ({ content: piece })));
    calls.forEach((call, index) => {
      deltas.push({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] });
      deltas.push(...halves(call.function.arguments).map((piece) => ({ tool_calls: [{ index, function: { arguments: piece } }] })));
    });
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
  };
}

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : '';

/** The assistant turn with calls and what follows it, as `assistant(2 calls) tool tool`. */
function toolTurn(body: unknown): ToolTurn {
  const messages = (body as Body).messages;
  const at = messages.findLastIndex((message) => message.role === 'assistant' && (message.tool_calls ?? []).length > 0);
  const assistant = messages[at];
  const after = messages.slice(at + 1);
  const calls = assistant?.tool_calls ?? [];
  return {
    shape: [`assistant(${calls.length} calls)`, ...after.map((message) => message.role)].join(' '),
    calls: calls.map((call) => ({ id: call.id, arguments: JSON.parse(call.function.arguments) })),
    results: after
      .filter((message) => message.role === 'tool')
      .map((message) => ({ id: message.tool_call_id ?? '', text: textOf(message.content) })),
  };
}

export interface ChatUpstreamOptions {
  /** The README column; default `name`. */
  label?: string;
  /** Ids the server gives its calls (and accepts in history). */
  toolCallIds?: readonly [string, string];
  /** The field that carries the output cap. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** The wire word for "must call a tool". */
  required?: 'required' | 'any';
  /** Forms the dialect cannot send, with the 400 fragment. */
  toolChoice?: Partial<Record<'auto' | 'required' | 'named' | 'none', Support>>;
}

/** A matrix upstream speaking Chat Completions (OpenAI or an OpenAI-compatible server). */
export function chatMatrixUpstream(
  name: string,
  createAdapter: (upstreamUrl: string) => ProviderAdapter,
  options: ChatUpstreamOptions = {},
): MatrixUpstream {
  const ids = options.toolCallIds ?? CHAT_TOOL_CALL_IDS;
  const maxTokensField = options.maxTokensField ?? 'max_completion_tokens';
  return {
    name,
    label: options.label ?? name,
    protocol: 'chat',
    notes: {
      parallelTools: 'a `tool` message each',
      toolChoiceRequired: options.required === 'any' ? '`any`' : '`required`',
      maxTokens: `\`${maxTokensField}\``,
      jsonSchema: '`response_format`',
      reasoning: '`reasoning_effort`',
    },
    createAdapter,
    upstreamModel: 'upstream-model',
    isStream: (request: RecordedRequest) => (request.body as Body).stream === true,
    reply: reply(ids),
    toolCallIds: ids,
    supports: {
      toolChoice: { auto: true, required: true, named: true, none: true, ...options.toolChoice },
      stopSequences: true,
      reportsStopSequence: false,
      jsonSchema: true,
      jsonObject: true,
      reasoning: true,
      reasoningTokens: true,
      reasoningReplay: 'n/a',
    },
    expect: {
      toolChoice: {
        auto: 'auto',
        required: options.required ?? 'required',
        named: { type: 'function', function: { name: MATRIX.toolName } },
        none: 'none',
      },
      // Every client's "high" (Messages: a 4096-token budget) is `reasoning_effort: high`.
      reasoning: { chat: { reasoning_effort: 'high' }, responses: { reasoning_effort: 'high' }, messages: { reasoning_effort: 'high' } },
      jsonSchema: { type: 'json_schema', json_schema: { schema: MATRIX.schema } },
      jsonObject: { type: 'json_object' },
      parallelShape: 'assistant(2 calls) tool tool',
      // OpenAI-style servers take no reasoning back: it is left out (never put into `content`).
      replayedReasoning: { chat: undefined, responses: undefined, messages: undefined },
    },
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
      turns: (body) =>
        (body as Body).messages
          .filter((message) => message.role === 'user' || message.role === 'assistant')
          .map((message) => ({ role: message.role as 'user' | 'assistant', text: textOf(message.content) })),
      toolTurn,
      toolChoice: (body) => (body as Body).tool_choice,
      stopSequences: (body) => (body as Body).stop,
      maxTokens: (body) => (body as Body)[maxTokensField],
      responseFormat: (body) => (body as Body).response_format,
      replayedReasoning: (body) => {
        const assistant = (body as Body).messages.filter((message) => message.role === 'assistant').at(-1) as
          | Record<string, unknown>
          | undefined;
        return assistant?.reasoning_content ?? assistant?.reasoning ?? assistant?.thinking_blocks;
      },
      reasoning: (body) => {
        const { reasoning_effort, reasoning, thinking } = body as Body;
        return Object.fromEntries(Object.entries({ reasoning_effort, reasoning, thinking }).filter(([, value]) => value !== undefined));
      },
    },
  };
}
