import { GatewayError, type CanonicalStreamEvent, type Usage, streamEndedEarly } from '../../canonical/index.js';
import type { SseMessage } from '../../sse/format-sse.js';
import { decodeMessagesUpstreamFinish } from './response-decoder.js';
import { pickUnknownAnswerFields } from '../unknown-fields.js';
import { parseMessagesStreamError } from './upstream-error.js';
import { cutTextTemplate, readTemplateText, type TextTemplate } from '../text-template.js';
import { isPlainMessagesUpstreamEvent } from './upstream-fast-path.js';
import { messagesUpstreamEventSchema, type MessagesUpstreamEvent } from './upstream-schema.js';
import { decodeMessagesUsage, type MessagesWireUsage } from './usage.js';

/** Turns one upstream stream's SSE messages into canonical events, incrementally. */
export interface MessagesStreamDecoder {
  decode(message: SseMessage): CanonicalStreamEvent[];
  /** Call when the upstream closes: finishes a stream cut after its stop reason, else reports it ended early. */
  end(): CanonicalStreamEvent[];
}

type OpenBlock =
  | { kind: 'text'; id: string }
  | { kind: 'reasoning'; id: string; signature: string }
  | { kind: 'tool'; id: string; hasInput: boolean }
  /** An Anthropic-only block (server-tool use and results): passed on verbatim. */
  | { kind: 'provider'; id: string };

const messageFields = ['id', 'type', 'role', 'model', 'content', 'stop_reason', 'stop_sequence', 'usage'];

function streamError(code: 'UPSTREAM_INVALID_STREAM', message: string, cause?: unknown): CanonicalStreamEvent {
  return { type: 'error', error: new GatewayError({ code, message, cause }) };
}

/** The deltas read from a template: a text's, a tool call's input JSON, a thinking block's text. */
type TemplateKind = 'text_delta' | 'input_json_delta' | 'thinking_delta';

/** The member each kind of delta holds its text in. */
const templateMember = { text_delta: 'text', input_json_delta: 'partial_json', thinking_delta: 'thinking' } as const;

/** Where the decoder reads each kind's text in a parsed event. */
const textOf = {
  text_delta: (event: unknown): unknown => (event as { delta?: { text?: unknown } } | null)?.delta?.text,
  input_json_delta: (event: unknown): unknown => (event as { delta?: { partial_json?: unknown } } | null)?.delta?.partial_json,
  thinking_delta: (event: unknown): unknown => (event as { delta?: { thinking?: unknown } } | null)?.delta?.thinking,
};

/** Templates cut per stream at most: one a block (thinking, text, a few tool calls), and little lost on a provider whose every event differs. */
const MAX_CUTS = 6;

const isTemplateKind = (type: string): type is TemplateKind =>
  type === 'text_delta' || type === 'input_json_delta' || type === 'thinking_delta';

/** The delta of a template's kind with `text`, as parsing the event would give it. */
function templateDelta(kind: TemplateKind, text: string): Extract<MessagesUpstreamEvent, { type: 'content_block_delta' }>['delta'] {
  if (kind === 'text_delta') return { type: kind, text };
  return kind === 'input_json_delta' ? { type: kind, partial_json: text } : { type: kind, thinking: text };
}

function parseData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/**
 * Anthropic SSE (`message_start`, `content_block_start/_delta/_stop`, `message_delta`,
 * `message_stop`, `ping`, `error`) → canonical stream events. Block ids are `b<index>`. Text,
 * thinking and partial tool JSON pass through as they arrive; a thinking signature is held
 * until its block ends (`reasoning-end.signature`). A tool call that got no JSON ends with `{}`.
 * Usage: input side from `message_start`, output (cumulative) from `message_delta`, input made
 * the canonical total (cache included). `event: error` becomes a canonical `error`.
 */
export interface MessagesStreamDecoderOptions {
  /** Sees every JSON object the decoder read, as parsed, known event or not (the stream relay's tap). */
  onEvent?: (event: Record<string, unknown>) => void;
}

export function createMessagesStreamDecoder(options: MessagesStreamDecoderOptions = {}): MessagesStreamDecoder {
  let started = false;
  let done = false;
  let open: OpenBlock | undefined;
  let hasToolCalls = false;
  const usage: MessagesWireUsage = {};
  let stopReason: string | undefined;
  let stopSequence: string | undefined;
  // The last delta cut around its text (a text's, a tool input's, a thinking block's), its kind and
  // index: the deltas that differ from it only in their text are read without parsing them
  // (../text-template.ts). A few cuts per stream at most.
  let template: TextTemplate | undefined;
  let templateKind: TemplateKind = 'text_delta';
  let templateIndex = 0;
  let cuts = 0;

  function addUsage(wire: MessagesWireUsage | null | undefined): void {
    if (wire === null || wire === undefined) return;
    for (const key of ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const) {
      const value = wire[key];
      if (typeof value === 'number') usage[key] = value;
    }
    if (typeof wire.output_tokens_details?.thinking_tokens === 'number') usage.output_tokens_details = wire.output_tokens_details;
    if (typeof wire.cache_creation?.ephemeral_1h_input_tokens === 'number') usage.cache_creation = wire.cache_creation;
  }

  function closeBlock(): CanonicalStreamEvent[] {
    const block = open;
    open = undefined;
    switch (block?.kind) {
      case undefined:
        return [];
      case 'provider':
        return [{ type: 'provider-end', id: block.id }];
      case 'text':
        return [{ type: 'text-end', id: block.id }];
      case 'reasoning':
        return [{ type: 'reasoning-end', id: block.id, ...(block.signature === '' ? {} : { signature: block.signature }) }];
      case 'tool':
        return [
          ...(block.hasInput ? [] : [{ type: 'tool-call-delta' as const, id: block.id, delta: '{}' }]),
          { type: 'tool-call-end', id: block.id },
        ];
    }
  }

  function finish(): CanonicalStreamEvent[] {
    done = true;
    const decodedUsage: Usage = decodeMessagesUsage(usage);
    return [
      ...closeBlock(),
      {
        type: 'finish',
        finishReason: decodeMessagesUpstreamFinish(stopReason, hasToolCalls),
        usage: decodedUsage,
        ...(stopSequence === undefined ? {} : { stopSequence }),
      },
    ];
  }

  function startBlock(index: number, block: Record<string, unknown> & { type: string }): CanonicalStreamEvent[] {
    const before = closeBlock();
    const id = `b${index}`;
    switch (block.type) {
      case 'text': {
        open = { kind: 'text', id };
        const rest = pickUnknownAnswerFields(block, ['type', 'text', 'citations']);
        const text = typeof block.text === 'string' ? block.text : '';
        return [
          ...before,
          { type: 'text-start', id, ...(rest === undefined ? {} : { extensions: { messages: rest } }) },
          ...(text === '' ? [] : [{ type: 'text-delta' as const, id, delta: text }]),
        ];
      }
      case 'thinking': {
        open = { kind: 'reasoning', id, signature: typeof block.signature === 'string' ? block.signature : '' };
        const text = typeof block.thinking === 'string' ? block.thinking : '';
        return [
          ...before,
          { type: 'reasoning-start', id },
          ...(text === '' ? [] : [{ type: 'reasoning-delta' as const, id, delta: text }]),
        ];
      }
      case 'redacted_thinking':
        open = { kind: 'reasoning', id, signature: '' };
        return [...before, { type: 'reasoning-start', id, redactedData: typeof block.data === 'string' ? block.data : '' }];
      case 'tool_use': {
        hasToolCalls = true;
        const input =
          typeof block.input === 'object' && block.input !== null && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : '';
        open = { kind: 'tool', id, hasInput: input !== '' };
        const toolCallId = typeof block.id === 'string' ? block.id : id;
        const name = typeof block.name === 'string' ? block.name : '';
        return [
          ...before,
          { type: 'tool-call-start', id, toolCallId, name },
          ...(input === '' ? [] : [{ type: 'tool-call-delta' as const, id, delta: input }]),
        ];
      }
      default:
        open = { kind: 'provider', id };
        return [...before, { type: 'provider-start', id, protocol: 'messages', kind: block.type, data: { ...block } }];
    }
  }

  function delta(event: Extract<MessagesUpstreamEvent, { type: 'content_block_delta' }>): CanonicalStreamEvent[] {
    const block = open;
    const { delta: body } = event;
    if (block === undefined || block.id !== `b${event.index}`) return [];
    if (block.kind === 'provider') return [{ type: 'provider-delta', id: block.id, data: { ...body } }];
    if (block.kind === 'text' && body.type === 'text_delta' && body.text) return [{ type: 'text-delta', id: block.id, delta: body.text }];
    if (block.kind === 'reasoning' && body.type === 'thinking_delta' && body.thinking) {
      return [{ type: 'reasoning-delta', id: block.id, delta: body.thinking }];
    }
    if (block.kind === 'reasoning' && body.type === 'signature_delta' && body.signature) block.signature += body.signature;
    if (block.kind === 'tool' && body.type === 'input_json_delta' && body.partial_json) {
      block.hasInput = true;
      return [{ type: 'tool-call-delta', id: block.id, delta: body.partial_json }];
    }
    return [];
  }

  function decodeEvent(event: MessagesUpstreamEvent): CanonicalStreamEvent[] {
    switch (event.type) {
      case 'message_start': {
        if (started) return [];
        started = true;
        const { message } = event;
        addUsage(message.usage);
        const rest = pickUnknownAnswerFields(message, messageFields);
        return [
          {
            type: 'start',
            id: message.id ?? '',
            model: message.model ?? '',
            usage: decodeMessagesUsage(usage),
            ...(rest === undefined ? {} : { extensions: { messages: rest } }),
          },
        ];
      }
      case 'content_block_start':
        return startBlock(event.index, event.content_block);
      case 'content_block_delta':
        return delta(event);
      case 'content_block_stop':
        return open?.id === `b${event.index}` ? closeBlock() : [];
      case 'message_delta':
        if (typeof event.delta?.stop_reason === 'string') stopReason = event.delta.stop_reason;
        if (typeof event.delta?.stop_sequence === 'string') stopSequence = event.delta.stop_sequence;
        addUsage(event.usage);
        return [];
      case 'message_stop':
        return finish();
      case 'ping':
        return [];
      case 'error':
        done = true;
        return [{ type: 'error', error: parseMessagesStreamError(event) }];
    }
  }

  /** Cuts a template from a delta that holds its type and its text and nothing else (so the delta is rebuilt whole). */
  function cutTemplate(data: string, index: number, body: Record<string, unknown>, kind: TemplateKind): void {
    const member = templateMember[kind];
    const text = body[member];
    if (typeof text !== 'string' || text === '' || Object.keys(body).length !== 2) return;
    cuts += 1;
    const cut = cutTextTemplate(data, member, text, textOf[kind]);
    if (cut === undefined) return;
    template = cut;
    templateKind = kind;
    templateIndex = index;
  }

  return {
    decode(message) {
      if (done) return [];
      if (template !== undefined) {
        const text = readTemplateText(template, message.data);
        if (text !== undefined)
          return delta({ type: 'content_block_delta', index: templateIndex, delta: templateDelta(templateKind, text) });
      }
      const data = parseData(message.data);
      if (data === undefined) {
        done = true;
        return [streamError('UPSTREAM_INVALID_STREAM', 'Anthropic sent a stream event that is not JSON.', message.data)];
      }
      if (typeof data === 'object' && data !== null) options.onEvent?.(data as Record<string, unknown>);
      // The common events skip the schema: it would return them unchanged (upstream-fast-path.ts).
      if (isPlainMessagesUpstreamEvent(data)) {
        // A relay's tap is given every event parsed, so it has no use for a template.
        if (data.type === 'content_block_delta' && isTemplateKind(data.delta.type) && options.onEvent === undefined && cuts < MAX_CUTS) {
          cutTemplate(message.data, data.index, data.delta as Record<string, unknown>, data.delta.type);
        }
        return decodeEvent(data);
      }
      const parsed = messagesUpstreamEventSchema.safeParse(data);
      return parsed.success ? decodeEvent(parsed.data) : [];
    },
    end() {
      if (done) return [];
      if (started && stopReason !== undefined) return finish();
      done = true;
      return [{ type: 'error', error: streamEndedEarly("Anthropic's stream ended before the answer was finished.") }];
    },
  };
}
