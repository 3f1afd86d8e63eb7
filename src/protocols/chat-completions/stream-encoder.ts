import type { CanonicalStreamEvent } from '../../canonical/index.js';
import { formatSse } from '../../sse/format-sse.js';
import type { EncodeContext, StreamEncoder } from '../codec.js';
import { encodeChatErrorBody } from './errors.js';
import { encodeChatFinishReason, type ChatFinishReason } from './finish-reason.js';
import { encodeChatCompletionId, encodeChatThinkingBlock } from './response.js';
import { isChatLegacyFunctionRequest } from './tools.js';
import { encodeChatUsage, type ChatUsage } from './usage.js';

type ChatDelta = Record<string, unknown>;

/** What an open block needs until its end: a tool call's ordinal, a reasoning block's text. */
type OpenBlock =
  | { kind: 'tool-call'; index: number; hasArguments: boolean; skipped: boolean }
  | { kind: 'reasoning'; text: string; redactedData?: string };

/**
 * Canonical stream events → Chat Completions SSE (`data: <chunk>` frames, no `event:` lines).
 *
 * The role chunk goes out with the first block (`content: ""` when that block is text, `null`
 * otherwise, so a folded tool-call stream has `content: null` like the non-streamed answer);
 * every chunk has the same `id`, `created` and `model` (the id the caller asked for). A refusal
 * goes out as `delta.refusal` fragments (so a refusal-only answer folds to `content: null`). Tool calls
 * get `index` = their ordinal; the first fragment carries `id`, `type`, `name` and
 * `arguments: ""`, and a call that got no argument text sends `"{}"`.
 * Reasoning goes out as `delta.reasoning_content`; a signed or redacted block is repeated whole
 * in `delta.thinking_blocks` at its end so the client can send it back. `finish` sends the
 * finish chunk, the usage chunk (`choices: []`, only with `includeUsage`, when every chunk also
 * has `usage: null`) and `data: [DONE]`. `error` sends `data: {"error": …}` and ends the stream.
 */
export function createChatStreamEncoder(context: EncodeContext): StreamEncoder {
  const includeUsage = context.request.includeUsage === true;
  const legacyFunctions = isChatLegacyFunctionRequest(context.request);
  const blocks = new Map<string, OpenBlock>();
  let id = encodeChatCompletionId(undefined, context.requestId);
  let started = false;
  let ended = false;
  let toolCalls = 0;

  // Every chunk starts with the same fields: written once per id, not stringified per chunk. The
  // text is what JSON.stringify makes of `{ id, object, created, model, choices[, usage] }`.
  let head = '';
  let headId: string | undefined;
  const headOf = (): string => {
    if (headId !== id) {
      headId = id;
      head = `data: {"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${JSON.stringify(context.created)},"model":${JSON.stringify(context.request.model)},"choices":`;
    }
    return head;
  };
  const frame = (choices: unknown[], usage?: ChatUsage): string => {
    const tail = includeUsage ? `,"usage":${JSON.stringify(usage ?? null)}}\n\n` : '}\n\n';
    return headOf() + JSON.stringify(choices) + tail;
  };
  /** The hot case as a template: the bytes `deltaFrame({ content: text })` makes, without building the choice. */
  const textFrame = (text: string): string =>
    `${headOf()}[{"index":0,"delta":{"content":${JSON.stringify(text)}},"logprobs":null,"finish_reason":null}]${includeUsage ? ',"usage":null}\n\n' : '}\n\n'}`;
  const deltaFrame = (delta: ChatDelta, finishReason: ChatFinishReason | null = null): string =>
    frame([{ index: 0, delta, logprobs: null, finish_reason: finishReason }]);
  /** The role chunk goes out with the first block: `content: ""` before text, `null` otherwise (as OpenAI does). */
  const open = (firstBlock: 'text' | 'other'): string => {
    if (started) return '';
    started = true;
    return deltaFrame({ role: 'assistant', content: firstBlock === 'text' ? '' : null, refusal: null });
  };
  const toolCallDelta = (index: number, fn: Record<string, string>, first?: { id: string }): ChatDelta => {
    if (legacyFunctions) return { function_call: fn };
    const opening = first === undefined ? {} : { id: first.id, type: 'function' };
    return { tool_calls: [{ index, ...opening, function: fn }] };
  };

  const encodeEvent = (event: CanonicalStreamEvent): string => {
    switch (event.type) {
      case 'start':
        id = encodeChatCompletionId(event.id, context.requestId);
        return '';
      case 'text-start':
      case 'text-end':
        return open('text');
      case 'text-delta':
        return open('text') + (event.delta === '' ? '' : textFrame(event.delta));
      case 'refusal-start':
      case 'refusal-end':
        return open('other');
      case 'refusal-delta':
        return open('other') + (event.delta === '' ? '' : deltaFrame({ refusal: event.delta }));
      case 'reasoning-start':
        blocks.set(event.id, {
          kind: 'reasoning',
          text: '',
          ...(event.redactedData === undefined ? {} : { redactedData: event.redactedData }),
        });
        return open('other');
      case 'reasoning-delta': {
        const block = blocks.get(event.id);
        if (block?.kind === 'reasoning') block.text += event.delta;
        return open('other') + (event.delta === '' ? '' : deltaFrame({ reasoning_content: event.delta }));
      }
      case 'reasoning-end': {
        const block = blocks.get(event.id);
        blocks.delete(event.id);
        const { signature } = event;
        if (block?.kind !== 'reasoning' || (signature === undefined && block.redactedData === undefined)) {
          return open('other');
        }
        const part = { type: 'reasoning' as const, text: block.text, signature, redactedData: block.redactedData };
        return open('other') + deltaFrame({ thinking_blocks: [encodeChatThinkingBlock(part)] });
      }
      case 'tool-call-start': {
        // The deprecated functions API carries one call; the decoder asked the provider for one.
        const skipped = legacyFunctions && toolCalls > 0;
        blocks.set(event.id, { kind: 'tool-call', index: toolCalls, hasArguments: false, skipped });
        if (skipped) return open('other');
        toolCalls += 1;
        const fn = { name: event.name, arguments: '' };
        return open('other') + deltaFrame(toolCallDelta(toolCalls - 1, fn, { id: event.toolCallId }));
      }
      case 'tool-call-delta': {
        const block = blocks.get(event.id);
        if (block?.kind !== 'tool-call' || block.skipped || event.delta === '') return open('other');
        if (event.delta.trim() !== '') block.hasArguments = true;
        return open('other') + deltaFrame(toolCallDelta(block.index, { arguments: event.delta }));
      }
      case 'tool-call-end': {
        const block = blocks.get(event.id);
        blocks.delete(event.id);
        if (block?.kind !== 'tool-call' || block.skipped || block.hasArguments) return open('other');
        return open('other') + deltaFrame(toolCallDelta(block.index, { arguments: '{}' }));
      }
      case 'finish': {
        ended = true;
        const callsFinish = toolCalls === 0 ? undefined : legacyFunctions ? 'function_call' : 'tool_calls';
        const finish = deltaFrame({}, encodeChatFinishReason(event.finishReason, callsFinish));
        // No usage chunk when the upstream reported none: nothing rather than 0 tokens.
        const usage = includeUsage ? encodeChatUsage(event.usage) : undefined;
        const usageChunk = usage === undefined ? '' : frame([], usage);
        return open('other') + finish + usageChunk + formatSse({ data: '[DONE]' });
      }
      case 'provider-start':
      case 'provider-delta':
      case 'provider-end':
        // Another protocol's own blocks (server tools) have no Chat form; the tools that make
        // them are refused for Chat callers before the provider is called.
        return '';
      case 'error':
        ended = true;
        return formatSse({ data: JSON.stringify(encodeChatErrorBody(event.error)) });
    }
  };

  return {
    encode(event: CanonicalStreamEvent): string {
      return ended ? '' : encodeEvent(event);
    },
  };
}
