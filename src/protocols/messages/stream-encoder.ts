import type { CanonicalStreamEvent, Usage } from '../../canonical/index.js';
import { formatSse } from '../../sse/format-sse.js';
import type { EncodeContext, StreamEncoder } from '../codec.js';
import { renderMessagesErrorBody } from './errors.js';
import { encodeMessagesFinishReason } from './finish-reason.js';
import { encodeMessagesMessageId } from './message-id.js';
import { encodeMessagesDeltaUsage, encodeMessagesUsage } from './usage.js';

type OpenBlock = { id: string; kind: 'text' | 'thinking' | 'redacted_thinking' | 'tool_use' | 'provider'; hasInput: boolean };

/**
 * Canonical stream events → Anthropic named SSE events: `message_start`, then per block
 * `content_block_start` / `_delta`* / `_stop` (index 0, 1, 2, … in order), `message_delta`
 * with the stop reason and full usage, `message_stop`. Anthropic has no refusal content (its
 * refusal is `stop_reason: "refusal"`), so a refusal block goes out as a text block, as in the
 * non-streamed answer. A canonical `error` becomes `event: error`, and nothing is written after it.
 */
export function createMessagesStreamEncoder(context: EncodeContext): StreamEncoder {
  let started = false;
  let ended = false;
  let nextIndex = 0;
  let open: OpenBlock | undefined;
  let hasToolCalls = false;

  const frame = (type: string, data: Record<string, unknown>): string =>
    formatSse({ event: type, data: JSON.stringify({ type, ...data }) });

  function messageStart(id: string | undefined, usage: Usage | undefined, extra: Record<string, unknown>): string {
    started = true;
    const message = {
      stop_details: null,
      container: null,
      ...extra,
      id: encodeMessagesMessageId(id, context.requestId),
      type: 'message',
      role: 'assistant',
      model: context.request.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: encodeMessagesUsage(usage ?? {}),
    };
    return frame('message_start', { message });
  }

  const ensureStarted = (): string => (started ? '' : messageStart(undefined, undefined, {}));

  function closeBlock(): string {
    if (open === undefined) return '';
    const index = nextIndex - 1;
    open = undefined;
    return frame('content_block_stop', { index });
  }

  function openBlock(block: OpenBlock, contentBlock: Record<string, unknown>): string {
    const before = ensureStarted() + closeBlock();
    open = block;
    const index = nextIndex++;
    return before + frame('content_block_start', { index, content_block: contentBlock });
  }

  function delta(id: string, kind: OpenBlock['kind'], body: Record<string, unknown>): string {
    if (open?.id !== id || open.kind !== kind) return '';
    return frame('content_block_delta', { index: nextIndex - 1, delta: body });
  }

  /**
   * The hot case, written as a template: the same bytes `frame('content_block_delta', { index,
   * delta: { type: 'text_delta', text } })` makes, without building and spreading two objects.
   */
  function textDelta(id: string, text: string): string {
    if (open?.id !== id || open.kind !== 'text') return '';
    return `event: content_block_delta\ndata: {"type":"content_block_delta","index":${nextIndex - 1},"delta":{"type":"text_delta","text":${JSON.stringify(text)}}}\n\n`;
  }

  function encode(event: CanonicalStreamEvent): string {
    switch (event.type) {
      case 'start':
        return started ? '' : messageStart(event.id, event.usage, event.extensions?.messages ?? {});
      // No refusal content in Anthropic Messages: a refusal block is a text block the caller reads.
      case 'text-start':
      case 'refusal-start':
        return openBlock({ id: event.id, kind: 'text', hasInput: false }, { type: 'text', text: '' });
      case 'text-delta':
      case 'refusal-delta':
        return event.delta === '' ? '' : textDelta(event.id, event.delta);
      case 'reasoning-start':
        return event.redactedData === undefined
          ? openBlock({ id: event.id, kind: 'thinking', hasInput: false }, { type: 'thinking', thinking: '', signature: '' })
          : openBlock(
              { id: event.id, kind: 'redacted_thinking', hasInput: false },
              { type: 'redacted_thinking', data: event.redactedData },
            );
      case 'reasoning-delta':
        return event.delta === '' ? '' : delta(event.id, 'thinking', { type: 'thinking_delta', thinking: event.delta });
      case 'reasoning-end': {
        if (open?.id !== event.id) return '';
        const signature =
          event.signature === undefined || event.signature === ''
            ? ''
            : delta(event.id, 'thinking', { type: 'signature_delta', signature: event.signature });
        return signature + closeBlock();
      }
      case 'tool-call-start':
        hasToolCalls = true;
        return openBlock(
          { id: event.id, kind: 'tool_use', hasInput: false },
          { type: 'tool_use', id: event.toolCallId, name: event.name, input: {} },
        );
      case 'tool-call-delta': {
        // Leading blank fragments are skipped so that blank arguments leave `input: {}` standing.
        if (open?.id !== event.id || (!open.hasInput && event.delta.trim() === '')) return '';
        open.hasInput = true;
        return delta(event.id, 'tool_use', { type: 'input_json_delta', partial_json: event.delta });
      }
      // Anthropic-only blocks (server tools and their results) pass through as they came.
      case 'provider-start':
        return event.protocol === 'messages' ? openBlock({ id: event.id, kind: 'provider', hasInput: false }, event.data) : '';
      case 'provider-delta':
        return delta(event.id, 'provider', event.data);
      case 'text-end':
      case 'refusal-end':
      case 'tool-call-end':
      case 'provider-end':
        return open?.id === event.id ? closeBlock() : '';
      case 'finish': {
        ended = true;
        const stopReason = encodeMessagesFinishReason(event.finishReason, {
          hasToolCalls,
          stopSequence: event.stopSequence,
        });
        const stopSequence = stopReason === 'stop_sequence' ? (event.stopSequence ?? null) : null;
        return (
          ensureStarted() +
          closeBlock() +
          frame('message_delta', {
            delta: { stop_reason: stopReason, stop_sequence: stopSequence, stop_details: null },
            usage: encodeMessagesDeltaUsage(event.usage),
          }) +
          frame('message_stop', {})
        );
      }
      case 'error':
        ended = true;
        return formatSse({ event: 'error', data: JSON.stringify(renderMessagesErrorBody(event.error, context.requestId)) });
    }
  }

  return { encode: (event) => (ended ? '' : encode(event)) };
}
