import { createAnthropicProvider } from '../../../src/providers/anthropic/index.js';
import { MATRIX, runMatrix } from '../../helpers/matrix.js';
import { sseText, type MockReply, type RecordedRequest } from '../../helpers/mock-upstream.js';

type Block = Record<string, unknown>;
type Body = { system?: Block[]; tools?: Block[]; messages: Array<{ role: string; content: Block[] }>; stream?: boolean };

const TOOL_CALL_ID = 'toolu_01MatrixWeather';
/** Anthropic input excludes the cache: canonical 42 = 32 uncached + 10 read. */
const usage = { input_tokens: MATRIX.usage.input - MATRIX.usage.cached, cache_read_input_tokens: MATRIX.usage.cached, cache_creation_input_tokens: 0 };

function message(content: Block[], stopReason: string): MockReply {
  return {
    json: {
      id: 'msg_01Matrix',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { ...usage, output_tokens: MATRIX.usage.output },
    },
  };
}

/** The Anthropic SSE transcript of `content`, every block streamed in two deltas, split every 3 bytes. */
function stream(content: Block[], stopReason: string): MockReply {
  const frames: Array<{ event: string; data: Block }> = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: { id: 'msg_01Matrix', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
      },
    },
    { event: 'ping', data: { type: 'ping' } },
  ];
  content.forEach((block, index) => {
    const isText = block.type === 'text';
    const whole = isText ? String(block.text) : JSON.stringify(block.input);
    const cut = Math.ceil(Array.from(whole).length / 2);
    const pieces = [Array.from(whole).slice(0, cut).join(''), Array.from(whole).slice(cut).join('')];
    const start = isText ? { type: 'text', text: '' } : { ...block, input: {} };
    frames.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: start } });
    for (const piece of pieces) {
      const delta = isText ? { type: 'text_delta', text: piece } : { type: 'input_json_delta', partial_json: piece };
      frames.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } });
    }
    frames.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  frames.push(
    { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: MATRIX.usage.output } } },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  return { sse: sseText(frames), chunkBytes: 3 };
}

const answer = (content: Block[], stopReason: string) => (streaming: boolean) => (streaming ? stream(content, stopReason) : message(content, stopReason));

const lastUser = (body: unknown) => (body as Body).messages.filter((turn) => turn.role === 'user').at(-1);

runMatrix({
  name: 'anthropic',
  createAdapter: (upstreamUrl) => createAnthropicProvider({ apiKey: 'sk-ant-upstream-key', baseURL: upstreamUrl }),
  upstreamModel: 'claude-sonnet-4-5',
  isStream: (request: RecordedRequest) => (request.body as Body).stream === true,
  replies: {
    text: answer([{ type: 'text', text: MATRIX.text }], 'end_turn'),
    toolCall: answer([{ type: 'tool_use', id: TOOL_CALL_ID, name: MATRIX.toolName, input: MATRIX.toolArguments }], 'tool_use'),
    afterTool: answer([{ type: 'text', text: MATRIX.afterToolText }], 'end_turn'),
  },
  toolCallId: TOOL_CALL_ID,
  read: {
    systemText: (body) => ((body as Body).system ?? []).map((block) => String(block.text)).join('\n'),
    toolNames: (body) => ((body as Body).tools ?? []).map((tool) => String(tool.name)),
    toolResult: (body) => {
      const block = lastUser(body)?.content.find((candidate) => candidate.type === 'tool_result');
      if (block === undefined) return undefined;
      const content = block.content;
      const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: Block) => String(part.text ?? '')).join('') : '';
      return { id: String(block.tool_use_id), text };
    },
    images: (body) =>
      (lastUser(body)?.content ?? [])
        .filter((block) => block.type === 'image')
        .map((block) => ((block.source as Block).type === 'url' ? 'url' : 'base64')),
  },
});
