import { createAnthropicProvider } from '../../../src/providers/anthropic/index.js';
import { MATRIX, type MatrixAnswer, type MatrixUpstream } from '../../helpers/matrix/index.js';
import { sseText, type MockReply, type RecordedRequest } from '../../helpers/mock-upstream.js';

type Block = Record<string, unknown>;
type Body = { system?: Block[]; tools?: Block[]; messages: Array<{ role: string; content: string | Block[] }>; stream?: boolean } & Record<
  string,
  unknown
>;

const TOOL_CALL_IDS = ['toolu_01MatrixWeather', 'toolu_02MatrixWeather'] as const;
/** Opaque and full of characters a careless codec would touch. */
const SIGNATURE = 'EqQBCkYIBRgCKkBz+/9sig==/Matrix+Signature==';

function usageOf(answer: MatrixAnswer, output: number) {
  return {
    // Anthropic input excludes the cache: canonical 42 = 32 uncached + 10 read.
    input_tokens: MATRIX.usage.input - MATRIX.usage.cached,
    cache_read_input_tokens: MATRIX.usage.cached,
    cache_creation_input_tokens: 0,
    output_tokens: output,
    ...(answer.reasoning ? { output_tokens_details: { thinking_tokens: MATRIX.usage.reasoning } } : {}),
  };
}

function contentOf(answer: MatrixAnswer): Block[] {
  return [
    ...(answer.reasoning ? [{ type: 'thinking', thinking: MATRIX.reasoning, signature: SIGNATURE }] : []),
    ...(answer.text === undefined ? [] : [{ type: 'text', text: answer.text }]),
    ...(answer.toolCalls ?? []).map((input, index) => ({ type: 'tool_use', id: TOOL_CALL_IDS[index], name: MATRIX.toolName, input })),
  ];
}

function halves(whole: string): [string, string] {
  const characters = Array.from(whole);
  const cut = Math.ceil(characters.length / 2);
  return [characters.slice(0, cut).join(''), characters.slice(cut).join('')];
}

/** Non-streamed: one message. Streamed: every block in two deltas (thinking then its signature), split every 3 bytes. */
function reply(answer: MatrixAnswer, streaming: boolean): MockReply {
  const content = contentOf(answer);
  const stopReason =
    answer.finish === 'length'
      ? 'max_tokens'
      : answer.finish === 'stop-sequence'
        ? 'stop_sequence'
        : (answer.toolCalls ?? []).length > 0
          ? 'tool_use'
          : 'end_turn';
  const stopSequence = answer.finish === 'stop-sequence' ? MATRIX.stop[0] : null;
  const message = { id: 'msg_01Matrix', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5' };
  if (!streaming) {
    return {
      json: { ...message, content, stop_reason: stopReason, stop_sequence: stopSequence, usage: usageOf(answer, MATRIX.usage.output) },
    };
  }
  const frames: Array<{ event: string; data: Block }> = [
    {
      event: 'message_start',
      data: { type: 'message_start', message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: usageOf({}, 1) } },
    },
    { event: 'ping', data: { type: 'ping' } },
  ];
  content.forEach((block, index) => {
    const delta = (body: Block) => frames.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: body } });
    if (block.type === 'thinking') {
      frames.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
      });
      for (const piece of halves(String(block.thinking))) delta({ type: 'thinking_delta', thinking: piece });
      delta({ type: 'signature_delta', signature: String(block.signature) });
    } else if (block.type === 'text') {
      frames.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      });
      for (const piece of halves(String(block.text))) delta({ type: 'text_delta', text: piece });
    } else {
      frames.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { ...block, input: {} } } });
      for (const piece of halves(JSON.stringify(block.input))) delta({ type: 'input_json_delta', partial_json: piece });
    }
    frames.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  const finalUsage = {
    output_tokens: MATRIX.usage.output,
    ...(answer.reasoning ? { output_tokens_details: { thinking_tokens: MATRIX.usage.reasoning } } : {}),
  };
  frames.push(
    {
      event: 'message_delta',
      data: { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: stopSequence }, usage: finalUsage },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  return { sse: sseText(frames), chunkBytes: 3 };
}

const blocksOf = (content: string | Block[]): Block[] => (typeof content === 'string' ? [{ type: 'text', text: content }] : content);
const lastUser = (body: unknown) => (body as Body).messages.filter((turn) => turn.role === 'user').at(-1);
const resultText = (block: Block): string => {
  const content = block.content;
  return typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part: Block) => String(part.text ?? '')).join('')
      : '';
};

export const anthropicUpstream: MatrixUpstream = {
  name: 'anthropic',
  label: 'anthropic',
  protocol: 'messages',
  notes: {
    parallelTools: 'results in one user turn',
    maxTokens: '`max_tokens`',
    toolChoiceRequired: '`any`',
    jsonSchema: '`output_config.format`',
    reasoning: '`thinking` budget',
    reasoningReplay: 'signature byte-exact, every client',
  },
  createAdapter: (upstreamUrl) => createAnthropicProvider({ apiKey: 'sk-ant-upstream-key', baseURL: upstreamUrl }),
  upstreamModel: 'claude-sonnet-4-5',
  isStream: (request: RecordedRequest) => (request.body as Body).stream === true,
  reply,
  toolCallIds: TOOL_CALL_IDS,
  supports: {
    toolChoice: { auto: true, required: true, named: true, none: true },
    stopSequences: true,
    reportsStopSequence: true,
    jsonSchema: true,
    jsonObject: { refused: 'JSON mode without a schema' },
    reasoning: true,
    reasoningTokens: true,
    reasoningReplay: true,
  },
  expect: {
    toolChoice: {
      auto: { type: 'auto' },
      required: { type: 'any' },
      named: { type: 'tool', name: MATRIX.toolName },
      none: { type: 'none' },
    },
    // Effort "high" is LiteLLM's 4096-token budget; a Messages client's budget is kept.
    reasoning: {
      chat: { type: 'enabled', budget_tokens: 4096 },
      responses: { type: 'enabled', budget_tokens: 4096 },
      messages: { type: 'enabled', budget_tokens: 4096 },
    },
    jsonSchema: { format: { type: 'json_schema', schema: MATRIX.schema } },
    parallelShape: 'assistant[tool_use,tool_use] user[tool_result,tool_result]',
    // The thinking block first in the assistant turn, signature byte-exact, whatever the client.
    replayedReasoning: {
      chat: { text: MATRIX.reasoning, signature: SIGNATURE },
      responses: { text: MATRIX.reasoning, signature: SIGNATURE },
      messages: { text: MATRIX.reasoning, signature: SIGNATURE },
    },
  },
  read: {
    systemText: (body) => ((body as Body).system ?? []).map((block) => String(block.text)).join('\n'),
    toolNames: (body) => ((body as Body).tools ?? []).map((tool) => String(tool.name)),
    toolResult: (body) => {
      const block = blocksOf(lastUser(body)?.content ?? []).find((candidate) => candidate.type === 'tool_result');
      return block === undefined ? undefined : { id: String(block.tool_use_id), text: resultText(block) };
    },
    images: (body) =>
      blocksOf(lastUser(body)?.content ?? [])
        .filter((block) => block.type === 'image')
        .map((block) => ((block.source as Block).type === 'url' ? 'url' : 'base64')),
    turns: (body) =>
      (body as Body).messages.map((turn) => ({
        role: turn.role as 'user' | 'assistant',
        text: blocksOf(turn.content)
          .filter((block) => block.type === 'text')
          .map((block) => String(block.text))
          .join(''),
      })),
    toolTurn: (body) => {
      const messages = (body as Body).messages;
      const at = messages.findLastIndex((turn) => turn.role === 'assistant');
      const after = messages.slice(at);
      const shape = after
        .map(
          (turn) =>
            `${turn.role}[${blocksOf(turn.content)
              .map((block) => block.type)
              .join(',')}]`,
        )
        .join(' ');
      const blocks = after.flatMap((turn) => blocksOf(turn.content));
      return {
        shape,
        calls: blocks.filter((block) => block.type === 'tool_use').map((block) => ({ id: String(block.id), arguments: block.input })),
        results: blocks
          .filter((block) => block.type === 'tool_result')
          .map((block) => ({ id: String(block.tool_use_id), text: resultText(block) })),
      };
    },
    toolChoice: (body) => (body as Body).tool_choice,
    stopSequences: (body) => (body as Body).stop_sequences,
    maxTokens: (body) => (body as Body).max_tokens,
    responseFormat: (body) => (body as Body).output_config,
    reasoning: (body) => (body as Body).thinking,
    replayedReasoning: (body) => {
      const assistant = (body as Body).messages.filter((turn) => turn.role === 'assistant').at(-1);
      const first = blocksOf(assistant?.content ?? [])[0];
      return first?.type === 'thinking' ? { text: String(first.thinking), signature: String(first.signature) } : undefined;
    },
  },
};
