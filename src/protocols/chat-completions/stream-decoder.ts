import type { CanonicalStreamEvent, Usage } from '../../canonical/index.js';
import { GatewayError, streamEndedEarly } from '../../canonical/index.js';
import type { SseMessage } from '../../sse/format-sse.js';
import { decodeChatUpstreamArguments, mintChatToolCallId } from './response-decoder.js';
import { parseChatInBandError } from './upstream-error.js';
import { decodeChatUpstreamFinishReason, decodeChatUpstreamUsage, readChatUpstreamText } from './upstream-message.js';
import { isPlainChatChunk } from './upstream-fast-path.js';
import { cutTextTemplate, readTemplateText, type TextTemplate } from '../text-template.js';
import { chatUpstreamChunkSchema, type ChatUpstreamChunk, type ChatUpstreamMessage, type ChatUpstreamToolCall } from './upstream-schema.js';

/** Upstream Chat SSE messages → canonical stream events, one message at a time. */
export interface ChatStreamDecoder {
  /** The events this SSE message completes ([] when none). */
  decode(message: SseMessage): CanonicalStreamEvent[];
  /** The events owed when the upstream closes the stream (finish, or an error if it was cut short). */
  end(): CanonicalStreamEvent[];
}

export interface ChatStreamDecoderOptions {
  /** Given each chunk as parsed, before it is decoded (a relay passes it on). */
  onChunk?(chunk: unknown): void;
}

/** A streamed tool call, gathered by its `index` until it has a name and can open its block. */
interface StreamedCall {
  blockId?: string;
  toolCallId?: string;
  name?: string;
  /** Argument text that arrived before the name. */
  pending: string;
  ended: boolean;
}

type BlockKind = 'text' | 'refusal' | 'reasoning' | 'tool-call';

/** The string of a delta a template is cut around: its text, its reasoning (by either name), or its one tool call's arguments. */
type TemplateMember = 'content' | 'reasoning_content' | 'reasoning' | 'arguments';

type TemplateDelta = {
  content?: unknown;
  reasoning_content?: unknown;
  reasoning?: unknown;
  tool_calls?: { function?: { arguments?: unknown } }[];
};

/** Where the decoder reads each member in a parsed chunk: its first choice's delta (a template's chunk has one choice). */
const deltaOf = (chunk: unknown): TemplateDelta | undefined =>
  (chunk as { choices?: { delta?: TemplateDelta }[] } | null)?.choices?.[0]?.delta;
const textOf: Record<TemplateMember, (chunk: unknown) => unknown> = {
  content: (chunk) => deltaOf(chunk)?.content,
  reasoning_content: (chunk) => deltaOf(chunk)?.reasoning_content,
  reasoning: (chunk) => deltaOf(chunk)?.reasoning,
  arguments: (chunk) => deltaOf(chunk)?.tool_calls?.[0]?.function?.arguments,
};

/** Templates cut per stream at most: one a kind of delta (reasoning, text, a few tool calls), and little lost on a provider whose every chunk differs. */
const MAX_CUTS = 6;

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The member of `delta` to cut a template around, if it has one. */
function templateMemberOf(delta: ChatUpstreamMessage): TemplateMember | undefined {
  if (isText(delta.content)) return 'content';
  if (delta.tool_calls?.length === 1 && isText(delta.tool_calls[0]!.function?.arguments)) return 'arguments';
  if (isText(delta.reasoning_content)) return 'reasoning_content';
  return isText(delta.reasoning) ? 'reasoning' : undefined;
}

/** `delta` with `text` in `member`, as parsing its chunk with that text would give it. */
function withTemplateText(delta: ChatUpstreamMessage, member: TemplateMember, text: string): ChatUpstreamMessage {
  switch (member) {
    case 'content':
      return { ...delta, content: text };
    case 'arguments': {
      const call = delta.tool_calls![0]!;
      return { ...delta, tool_calls: [{ ...call, function: { ...call.function, arguments: text } }] };
    }
    default:
      return { ...delta, [member]: text };
  }
}

function streamError(code: 'UPSTREAM_INVALID_STREAM' | 'UPSTREAM_GENERATION_FAILED', message: string, cause?: unknown): GatewayError {
  return new GatewayError({ code, message, cause });
}

/**
 * Creates the decoder for one upstream Chat Completions stream (OpenAI or OpenAI-compatible).
 *
 * Incremental: text, refusal (`delta.refusal`, its own block), reasoning (`reasoning_content ??
 * reasoning`, Mistral thinking parts) and partial tool-call JSON go out as deltas as they arrive; only argument text that precedes a
 * call's name is held. `start` uses the first non-empty id/model (Azure's first chunk has
 * none); chunks without choices are read for usage and errors only; usage is the last one seen
 * (`usage` or Groq `x_groq.usage`); `finish` is sent at `[DONE]`, or when the stream closes after
 * a finish reason, with `tool-calls` whenever calls were made. A top-level `error`, an
 * `event: error` frame or a failing finish reason become an `error` event; a stream that closes
 * with neither a finish reason nor `[DONE]` was cut short and ends in an error.
 */
export function createChatStreamDecoder(options: ChatStreamDecoderOptions = {}): ChatStreamDecoder {
  const { onChunk } = options;
  let id = '';
  let model = '';
  let started = false;
  let finished = false;
  let blocks = 0;
  let open: { id: string; kind: BlockKind; call?: StreamedCall } | undefined;
  let finishRaw: string | undefined;
  let usage: Usage | undefined;
  const calls = new Map<string, StreamedCall>();
  let out: CanonicalStreamEvent[] = [];
  // The last chunk that only carried text (or reasoning, or a tool call's arguments), cut around
  // it, its delta and which member: the chunks that differ from it only in that string are read
  // without parsing them (../text-template.ts).
  let template: TextTemplate | undefined;
  let templateDelta: ChatUpstreamMessage | undefined;
  let templateMember: TemplateMember = 'content';
  let cuts = 0;

  const start = () => {
    if (started) return;
    started = true;
    out.push({ type: 'start', id, model });
  };
  const close = () => {
    if (open === undefined) return;
    const { kind, id: blockId, call } = open;
    out.push({ type: `${kind}-end`, id: blockId });
    if (call !== undefined) call.ended = true;
    open = undefined;
  };
  const openBlock = (kind: BlockKind): string => {
    if (open?.kind === kind && kind !== 'tool-call') return open.id;
    start();
    close();
    const blockId = `b${blocks++}`;
    open = { id: blockId, kind };
    if (kind !== 'tool-call') out.push({ type: `${kind}-start`, id: blockId });
    return blockId;
  };
  const fail = (error: GatewayError) => {
    start();
    out.push({ type: 'error', error });
    finished = true;
  };

  const startCall = (call: StreamedCall, name: string) => {
    const blockId = openBlock('tool-call');
    call.blockId = blockId;
    call.toolCallId ||= mintChatToolCallId(id, calls.size - 1);
    open = { id: blockId, kind: 'tool-call', call };
    out.push({ type: 'tool-call-start', id: blockId, toolCallId: call.toolCallId, name });
    if (call.pending !== '') out.push({ type: 'tool-call-delta', id: blockId, delta: call.pending });
    call.pending = '';
  };

  const decodeCall = (fragment: ChatUpstreamToolCall, key: string) => {
    let call = calls.get(key);
    if (call === undefined) {
      call = { pending: '', ended: false };
      calls.set(key, call);
    }
    if (fragment.id) call.toolCallId ??= fragment.id;
    // LM Studio repeats `name: ""` on later fragments: never overwrite a name with an empty one.
    if (fragment.function?.name) call.name ??= fragment.function.name;
    const args = decodeChatUpstreamArguments(fragment.function?.arguments);
    if (call.ended) {
      if (args !== '') fail(streamError('UPSTREAM_INVALID_STREAM', 'The provider continued a tool call after starting another one.'));
      return;
    }
    if (call.blockId === undefined) {
      call.pending += args;
      if (call.name !== undefined) startCall(call, call.name);
    } else if (args !== '') {
      out.push({ type: 'tool-call-delta', id: call.blockId, delta: args });
    }
  };

  const decodeDelta = (delta: ChatUpstreamMessage) => {
    const { text, reasoning } = readChatUpstreamText(delta);
    if (reasoning !== '') out.push({ type: 'reasoning-delta', id: openBlock('reasoning'), delta: reasoning });
    for (const block of delta.thinking_blocks ?? []) {
      // LiteLLM-style blocks carry Anthropic signatures at the end of a reasoning block.
      if (block.type === 'redacted_thinking') {
        close();
        start();
        const blockId = `b${blocks++}`;
        out.push({ type: 'reasoning-start', id: blockId, redactedData: block.data ?? '' }, { type: 'reasoning-end', id: blockId });
      } else if (block.signature) {
        if (open?.kind !== 'reasoning' && block.thinking) {
          out.push({ type: 'reasoning-delta', id: openBlock('reasoning'), delta: block.thinking });
        }
        const blockId = open?.kind === 'reasoning' ? open.id : openBlock('reasoning');
        out.push({ type: 'reasoning-end', id: blockId, signature: block.signature });
        open = undefined;
      }
    }
    if (text !== '') out.push({ type: 'text-delta', id: openBlock('text'), delta: text });
    if (delta.refusal) out.push({ type: 'refusal-delta', id: openBlock('refusal'), delta: delta.refusal });
    (delta.tool_calls ?? []).forEach((fragment, position) => {
      decodeCall(fragment, fragment.index != null ? `i${fragment.index}` : fragment.id ? `id${fragment.id}` : `p${calls.size + position}`);
    });
    if (delta.function_call) {
      decodeCall({ function: { name: delta.function_call.name, arguments: delta.function_call.arguments } }, 'function_call');
    }
  };

  const finish = () => {
    close();
    const unnamed = [...calls.values()].some((call) => call.blockId === undefined);
    if (unnamed) return fail(streamError('UPSTREAM_INVALID_STREAM', 'The provider streamed a tool call without a name.'));
    const finishReason = decodeChatUpstreamFinishReason(finishRaw, calls.size > 0);
    if (finishReason.unified === 'error') {
      const reason = finishReason.raw ?? 'error';
      return fail(streamError('UPSTREAM_GENERATION_FAILED', `The provider stopped generating with finish reason '${reason}'.`));
    }
    start();
    out.push({ type: 'finish', finishReason, usage: usage ?? {} });
    finished = true;
  };

  /**
   * Cuts a template from a chunk that changed nothing but the text: the stream had started, and
   * the chunk carried no usage and one choice, without a finish reason, whose delta has a text.
   * A few per stream, so that a provider whose every chunk differs (a random field) costs little.
   */
  const cutTemplate = (data: string, chunk: ChatUpstreamChunk) => {
    const choice = chunk.choices?.length === 1 ? chunk.choices[0]! : undefined;
    const delta = choice?.delta;
    if (!started || finished || !id || !model || chunk.usage != null || delta == null) return;
    if ((choice!.index ?? 0) !== 0 || choice!.finish_reason != null) return;
    const member = templateMemberOf(delta);
    if (member === undefined) return;
    cuts += 1;
    // OpenAI pads each chunk with a random `obfuscation` member, which the decoder does not read.
    const cut = cutTextTemplate(data, member, textOf[member](chunk) as string, textOf[member], { tail: 'obfuscation' });
    if (cut === undefined) return;
    template = cut;
    templateDelta = delta;
    templateMember = member;
  };

  const decodeData = (data: string) => {
    if (data.length < 16 && data.trim() === '[DONE]') return finish();
    if (template !== undefined) {
      const text = readTemplateText(template, data);
      if (text !== undefined) return decodeDelta(withTemplateText(templateDelta!, templateMember, text));
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch (error) {
      return fail(streamError('UPSTREAM_INVALID_STREAM', 'The provider sent a stream event that is not JSON.', error));
    }
    onChunk?.(json);
    let chunk: ChatUpstreamChunk;
    // As parsed: the schema's copy (of an odd chunk) is not the text it came as.
    let plain = false;
    if (isPlainChatChunk(json)) {
      chunk = json;
      plain = true;
    } else {
      const parsed = chatUpstreamChunkSchema.safeParse(json);
      if (!parsed.success)
        return fail(streamError('UPSTREAM_INVALID_STREAM', 'The provider sent a stream event that is not a chunk.', json));
      chunk = parsed.data;
    }
    if (chunk.error !== undefined && chunk.error !== null) return fail(parseChatInBandError(json));
    if (!id && chunk.id) id = chunk.id;
    if (!model && chunk.model) model = chunk.model;
    if (id) start();
    usage = decodeChatUpstreamUsage(chunk.usage, chunk.x_groq?.usage) ?? usage;
    const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
    if (choice === undefined) return;
    if (choice.delta) decodeDelta(choice.delta);
    if (choice.finish_reason) finishRaw = choice.finish_reason;
    // A relay is given every chunk parsed, so it has no use for a template.
    if (plain && onChunk === undefined && cuts < MAX_CUTS) cutTemplate(data, chunk);
  };

  const take = (): CanonicalStreamEvent[] => {
    const events = out;
    out = [];
    return events;
  };

  return {
    decode(message) {
      if (finished || message.data === '') return [];
      if (message.event === 'error') {
        let body: unknown = message.data;
        try {
          body = JSON.parse(message.data);
        } catch {
          // keep the text
        }
        fail(parseChatInBandError(body));
      } else decodeData(message.data);
      return take();
    },
    end() {
      if (finished) return [];
      if (finishRaw === undefined) {
        fail(streamEndedEarly());
      } else finish();
      return take();
    },
  };
}
