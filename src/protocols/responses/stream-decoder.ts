import { GatewayError, type CanonicalStreamEvent, type Extensions, streamEndedEarly } from '../../canonical/index.js';
import type { SseMessage } from '../../sse/format-sse.js';
import { decodeResponsesFinishReason } from './finish-reason.js';
import { decodeResponsesOutputItem, decodeResponsesReasoningEndExtensions } from './output-decoder.js';
import { decodeResponsesFailure } from './upstream-error.js';
import { cutTextTemplate, readTemplateText, type TextTemplate } from '../text-template.js';
import { isPlainResponsesStreamEvent, parseUnlessPlain } from './upstream-fast-path.js';
import { UpstreamStreamEventSchema, type UpstreamResponse, type UpstreamStreamEvent } from './upstream-schema.js';
import { decodeResponsesUsage } from './usage.js';

export interface ResponsesStreamDecoder {
  /** The canonical events one upstream SSE message adds (often none). */
  decode(message: SseMessage): CanonicalStreamEvent[];
  /** Call when the upstream stream ends: an `error` event if it ended before its terminal event. */
  end(): CanonicalStreamEvent[];
}

export interface ResponsesStreamDecoderOptions {
  /** The model id for `start` when the upstream names none. */
  model?: string;
  /** Sees every upstream event the decoder read, as parsed (the stream relay's tap). */
  onEvent?: (event: UpstreamStreamEvent) => void;
}

type BlockKind = 'text' | 'refusal' | 'reasoning' | 'tool-call';
type ContentKind = 'text' | 'refusal';
interface OpenBlock {
  id: string;
  kind: BlockKind;
  outputIndex: number;
  /** `content_index` of a text or refusal block. */
  part?: number;
  /** Whether any delta went out (so a `.done` event's full text is not sent twice). */
  streamed: boolean;
}
interface ItemState {
  type: string;
  extensions?: Extensions;
  /** Whether a block was opened for the item. */
  emitted: boolean;
  /** Summary/content parts of a reasoning item seen so far, and which of them streamed deltas. */
  reasoningParts: Set<number>;
  streamedParts: Set<number>;
}

const reasoningDeltas = new Set(['response.reasoning_summary_text.delta', 'response.reasoning_text.delta']);
const reasoningDones = new Set(['response.reasoning_summary_text.done', 'response.reasoning_text.done']);

/** Where the decoder reads a delta's text. */
const textOfDelta = (event: unknown): unknown => (event as { delta?: unknown } | null)?.delta;

/** The deltas read from a template: text and refusals, a tool call's input, reasoning. */
const templateTypes = new Set([
  'response.output_text.delta',
  'response.refusal.delta',
  'response.function_call_arguments.delta',
  'response.custom_tool_call_input.delta',
  ...reasoningDeltas,
]);

/** Templates cut per stream at most: one a kind of delta (reasoning, text, a few tool calls), and little lost on a provider whose every event differs. */
const MAX_CUTS = 6;

/**
 * Decodes an upstream Responses SSE stream into canonical block events, incrementally: one
 * `message` content part → one text or refusal block, one `function_call` /
 * `custom_tool_call` item → one tool-call block whose argument fragments pass through as they
 * arrive, one `reasoning` item → one reasoning block (summary parts separated by a blank line).
 * `response.completed` / `response.incomplete` → `finish` with usage; `response.failed` and the
 * `error` event → an `error` event. Items the upstream only reported whole are replayed from their
 * final form, so nothing is lost when a server skips the delta events.
 */
export function createResponsesStreamDecoder(options: ResponsesStreamDecoderOptions = {}): ResponsesStreamDecoder {
  let started = false;
  let finished = false;
  let blockCount = 0;
  let sawToolCall = false;
  let open: OpenBlock | undefined;
  const items = new Map<number, ItemState>();
  let out: CanonicalStreamEvent[] = [];
  // The last delta cut around its text (its counter and padding apart), its type and where it
  // goes: the deltas that differ from it only there are read without parsing them (../text-template.ts).
  let template: TextTemplate | undefined;
  let templateType = 'response.output_text.delta';
  let templateIndex = 0;
  let templatePart = 0;
  let cuts = 0;

  const start = (response?: UpstreamResponse | null): void => {
    if (started) return;
    started = true;
    out.push({ type: 'start', id: response?.id ?? '', model: response?.model ?? options.model ?? '' });
  };
  const itemAt = (index: number, type = 'message'): ItemState => {
    let state = items.get(index);
    if (state === undefined) {
      state = { type, emitted: false, reasoningParts: new Set(), streamedParts: new Set() };
      items.set(index, state);
    }
    return state;
  };
  const close = (extensions?: Extensions): void => {
    if (open === undefined) return;
    if (open.kind === 'reasoning') {
      out.push({ type: 'reasoning-end', id: open.id, ...(extensions === undefined ? {} : { extensions }) });
    } else {
      out.push({ type: `${open.kind}-end`, id: open.id });
    }
    open = undefined;
  };
  const openBlock = (kind: BlockKind, outputIndex: number, part?: number): OpenBlock => {
    close();
    const state = itemAt(outputIndex);
    state.emitted = true;
    open = { id: `b${blockCount++}`, kind, outputIndex, ...(part === undefined ? {} : { part }), streamed: false };
    if (kind !== 'tool-call') {
      out.push({ type: `${kind}-start`, id: open.id, ...(state.extensions === undefined ? {} : { extensions: state.extensions }) });
    }
    return open;
  };
  const delta = (block: OpenBlock, value: string | null | undefined): void => {
    if (value == null || value === '') return;
    block.streamed = true;
    out.push({ type: `${block.kind}-delta`, id: block.id, delta: value });
  };
  const contentBlock = (kind: ContentKind, index: number, part: number): OpenBlock =>
    open?.kind === kind && open.outputIndex === index && open.part === part ? open : openBlock(kind, index, part);
  const reasoningBlock = (index: number): OpenBlock =>
    open?.kind === 'reasoning' && open.outputIndex === index ? open : openBlock('reasoning', index);
  const toolBlock = (index: number): OpenBlock | undefined => (open?.kind === 'tool-call' && open.outputIndex === index ? open : undefined);

  /** Replays a whole item (known only from its final form) as blocks. */
  const replayItem = (index: number, item: unknown): void => {
    for (const part of decodeResponsesOutputItem(item)) {
      if (part.type === 'text' || part.type === 'refusal') {
        if (part.text !== '') delta(openBlock(part.type, index), part.text);
      } else if (part.type === 'reasoning') {
        // An item with no text still matters when it carries encrypted content to replay.
        if (part.text === '' && typeof part.extensions?.responses?.encrypted_content !== 'string') continue;
        delta(openBlock('reasoning', index), part.text);
        close(part.extensions);
        continue;
      } else if (part.type === 'provider-defined') {
        // Hosted-tool items (web_search_call, …) reach a Responses client whole, as OpenAI sent them.
        close();
        const id = `b${blockCount++}`;
        out.push({ type: 'provider-start', id, protocol: part.protocol, kind: part.kind, data: part.data }, { type: 'provider-end', id });
        continue;
      } else if (part.type === 'tool-call') {
        sawToolCall = true;
        const block = openBlock('tool-call', index);
        const namespace = part.namespace === undefined ? {} : { namespace: part.namespace };
        const itemId = part.extensions?.responses?.id;
        const extensions = typeof itemId === 'string' ? { extensions: { responses: { id: itemId } } } : {};
        out.push({ type: 'tool-call-start', id: block.id, toolCallId: part.id, name: part.name, ...namespace, ...extensions });
        delta(block, part.arguments);
      }
      close();
    }
  };

  const itemAdded = (index: number, event: UpstreamStreamEvent): void => {
    const item = event.item;
    if (item == null) return;
    const state = itemAt(index, item.type);
    state.type = item.type;
    if (item.type === 'message' && typeof item.id === 'string') {
      state.extensions = { responses: { id: item.id, ...(typeof item.phase === 'string' ? { phase: item.phase } : {}) } };
    }
    if (item.type === 'reasoning' && typeof item.id === 'string') state.extensions = { responses: { id: item.id } };
    if (
      (item.type === 'function_call' || item.type === 'custom_tool_call') &&
      typeof item.call_id === 'string' &&
      typeof item.name === 'string'
    ) {
      sawToolCall = true;
      const block = openBlock('tool-call', index);
      const namespace = typeof item.namespace === 'string' ? { namespace: item.namespace } : {};
      // The item's own id, so the client replays the call under the id OpenAI gave it (as when not streamed).
      const extensions = typeof item.id === 'string' ? { extensions: { responses: { id: item.id } } } : {};
      out.push({ type: 'tool-call-start', id: block.id, toolCallId: item.call_id, name: item.name, ...namespace, ...extensions });
      const initial = item.type === 'custom_tool_call' ? item.input : item.arguments;
      if (typeof initial === 'string') delta(block, initial);
    }
  };

  const itemDone = (index: number, event: UpstreamStreamEvent): void => {
    const state = items.get(index);
    if (open !== undefined && open.outputIndex === index) {
      if (open.kind === 'tool-call' && !open.streamed && event.item != null) {
        const final = event.item.type === 'custom_tool_call' ? event.item.input : event.item.arguments;
        if (typeof final === 'string') delta(open, final);
      }
      close(decodeResponsesReasoningEndExtensions(event.item));
    } else if (state?.emitted !== true && event.item != null) {
      replayItem(index, event.item);
    }
    itemAt(index).emitted = true;
  };

  const terminal = (event: UpstreamStreamEvent): void => {
    const response = event.response;
    start(response);
    close();
    (response?.output ?? []).forEach((item, index) => {
      if (!items.has(index)) replayItem(index, item);
    });
    const status = response?.status ?? (event.type === 'response.incomplete' ? 'incomplete' : 'completed');
    out.push({
      type: 'finish',
      finishReason: decodeResponsesFinishReason(status, response?.incomplete_details?.reason ?? undefined, sawToolCall),
      usage: decodeResponsesUsage(response?.usage),
    });
    finished = true;
  };

  const fail = (error: GatewayError): void => {
    start();
    out.push({ type: 'error', error });
    finished = true;
  };

  const handle = (event: UpstreamStreamEvent): void => {
    const index = event.output_index ?? 0;
    const part = event.content_index ?? event.summary_index ?? 0;
    switch (event.type) {
      case 'response.created':
      case 'response.in_progress':
      case 'response.queued':
        return start(event.response);
      case 'response.output_item.added':
        return itemAdded(index, event);
      case 'response.output_item.done':
        return itemDone(index, event);
      case 'response.content_part.added':
        if (event.part?.type === 'reasoning_text') reasoningBlock(index);
        else if (event.part?.type === 'output_text') contentBlock('text', index, part);
        else if (event.part?.type === 'refusal') contentBlock('refusal', index, part);
        return;
      case 'response.output_text.delta':
        return delta(contentBlock('text', index, part), event.delta);
      case 'response.refusal.delta':
        return delta(contentBlock('refusal', index, part), event.delta);
      case 'response.output_text.done':
      case 'response.refusal.done': {
        const refusal = event.type === 'response.refusal.done';
        const block = contentBlock(refusal ? 'refusal' : 'text', index, part);
        if (!block.streamed) delta(block, refusal ? event.refusal : event.text);
        return close();
      }
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta': {
        const block = toolBlock(index);
        return block === undefined ? undefined : delta(block, event.delta);
      }
      case 'response.function_call_arguments.done':
      case 'response.custom_tool_call_input.done': {
        const block = toolBlock(index);
        if (block !== undefined && !block.streamed)
          delta(block, event.type === 'response.custom_tool_call_input.done' ? event.input : event.arguments);
        return;
      }
      case 'response.reasoning_summary_part.added':
        reasoningPart(index, part);
        return;
      case 'response.completed':
      case 'response.incomplete':
        return terminal(event);
      case 'response.failed':
        return fail(decodeResponsesFailure(event.response?.error));
      case 'error':
        return fail(decodeResponsesFailure(event));
      default:
        if (reasoningDeltas.has(event.type)) {
          const block = reasoningPart(index, part);
          itemAt(index).streamedParts.add(part);
          return delta(block, event.delta);
        }
        if (reasoningDones.has(event.type)) {
          const block = reasoningPart(index, part);
          if (!itemAt(index).streamedParts.has(part)) delta(block, event.text);
        }
    }
  };

  /** The reasoning block of an item; a further summary part is set off by a blank line. */
  function reasoningPart(index: number, part: number): OpenBlock {
    const block = reasoningBlock(index);
    const state = itemAt(index, 'reasoning');
    if (!state.reasoningParts.has(part)) {
      if (state.reasoningParts.size > 0 && block.streamed) delta(block, '\n\n');
      state.reasoningParts.add(part);
    }
    return block;
  }

  /** Cuts a template from a delta as the upstream wrote it (a few per stream at most). */
  const cutTemplate = (data: string, event: UpstreamStreamEvent): void => {
    if (typeof event.delta !== 'string' || event.delta === '') return;
    cuts += 1;
    const cut = cutTextTemplate(data, 'delta', event.delta, textOfDelta, { counter: 'sequence_number', tail: 'obfuscation' });
    if (cut === undefined) return;
    template = cut;
    templateType = event.type;
    templateIndex = event.output_index ?? 0;
    templatePart = event.content_index ?? event.summary_index ?? 0;
  };

  return {
    decode(message: SseMessage): CanonicalStreamEvent[] {
      if (finished) return [];
      if (template !== undefined) {
        const text = readTemplateText(template, message.data);
        if (text !== undefined) {
          out = [];
          handle({ type: templateType, output_index: templateIndex, content_index: templatePart, delta: text });
          return out;
        }
      }
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch (error) {
        // `[DONE]` (some compatible servers end with it) carries nothing; any other frame that is
        // not JSON is a broken stream, and the text it held would be lost without a word.
        if (message.data.trim() === '[DONE]') return [];
        out = [];
        fail(
          new GatewayError({
            code: 'UPSTREAM_INVALID_STREAM',
            message: 'The provider sent a stream event that is not JSON.',
            cause: error,
          }),
        );
        return out;
      }
      const typed =
        typeof data === 'object' && data !== null && !('type' in data) && message.event !== undefined
          ? { ...data, type: message.event }
          : data;
      const parsed = parseUnlessPlain(UpstreamStreamEventSchema, isPlainResponsesStreamEvent, typed);
      if (!parsed.success) return [];
      options.onEvent?.(parsed.data);
      out = [];
      handle(parsed.data);
      // As the upstream wrote it (the schema's copy of an odd event is not its text); a relay's tap
      // is given every event parsed, so it has no use for a template.
      const event = parsed.data;
      if (event === data && templateTypes.has(event.type) && options.onEvent === undefined && cuts < MAX_CUTS) {
        cutTemplate(message.data, event);
      }
      return out;
    },
    end(): CanonicalStreamEvent[] {
      if (finished) return [];
      out = [];
      const message = "The provider's stream ended before the response was completed.";
      fail(streamEndedEarly(message));
      return out;
    },
  };
}
