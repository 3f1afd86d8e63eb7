import type { CanonicalStreamEvent, Extensions, FinishReason, GatewayError, Usage } from '../../canonical/index.js';
import { formatSse } from '../../sse/format-sse.js';
import type { EncodeContext, StreamEncoder } from '../codec.js';
import { encodeResponsesErrorCode } from './errors.js';
import { encodeResponsesFinishReason } from './finish-reason.js';
import {
  encodeResponsesReasoningItem,
  encodeResponsesToolCallItem,
  isResponsesCustomTool,
  type ResponsesItemStatus,
  type ResponsesOutputItem,
  type ResponsesOutputTextPart,
  type ResponsesRefusalPart,
} from './output-items.js';
import { encodeResponsesObject, type ResponsesObjectState } from './response-object.js';
import { encodeResponsesUsage } from './usage.js';
import { encodeResponsesId, encodeResponsesItemId } from './wire-id.js';

interface BlockBase {
  /** The canonical block id. */
  id: string;
  itemId: string;
  outputIndex: number;
  text: string;
}
type OpenBlock =
  | (BlockBase & { kind: 'text' })
  | (BlockBase & { kind: 'refusal' })
  | (BlockBase & { kind: 'reasoning'; partOpen: boolean; redactedData?: string })
  | (BlockBase & { kind: 'tool'; callId: string; name: string; namespace?: string; custom: boolean });

const emptyTextPart = (text: string): ResponsesOutputTextPart => ({ type: 'output_text', text, annotations: [], logprobs: [] });
const refusalPart = (refusal: string): ResponsesRefusalPart => ({ type: 'refusal', refusal });

/**
 * Encodes canonical stream events as Responses SSE: `response.created` + `response.in_progress`,
 * one output item per block (message / reasoning / function_call) with its added → delta → done
 * chain (a refusal block is a message whose part is `refusal`, fed by `response.refusal.delta`), then `response.completed` | `response.incomplete` | `response.failed` carrying the full
 * output and usage. Every event has `sequence_number` (from 0); there is no `[DONE]`.
 */
export function createResponsesStreamEncoder(context: EncodeContext): StreamEncoder {
  let sequence = 0;
  let responseId = encodeResponsesId(context.requestId);
  let started = false;
  let ended = false;
  const output: ResponsesOutputItem[] = [];
  let block: OpenBlock | undefined;
  /** A hosted-tool item from an OpenAI Responses upstream, passed through whole. */
  let providerItem: { id: string; outputIndex: number; item: ResponsesOutputItem } | undefined;

  /** One event from its JSON members after `type` and `sequence_number` (`"a":1,"b":2`, or ''). */
  const rawFrame = (type: string, members: string): string =>
    formatSse({
      event: type,
      data: `{"type":${JSON.stringify(type)},"sequence_number":${sequence++}${members === '' ? '' : `,${members}`}}`,
    });
  /**
   * One event: `type` and `sequence_number`, then `fields` in their order. Written as text rather
   * than as `{ type, sequence_number, ...fields }`, and callers pass object literals: hot-path
   * rule 1 (docs/architecture.md#hot-path-rules).
   */
  const frame = (type: string, fields: Record<string, unknown>): string => rawFrame(type, JSON.stringify(fields).slice(1, -1));
  const snapshot = (state: Omit<ResponsesObjectState, 'id' | 'output'>) =>
    encodeResponsesObject(context, { id: responseId, output, ...state });
  const inProgress = { status: 'in_progress', usage: null, error: null, incompleteDetails: null } as const;

  const start = (providerId?: string): string => {
    if (started) return '';
    started = true;
    responseId = encodeResponsesId(context.requestId, providerId);
    // The two opening events carry the same snapshot: serialised once.
    const response = `"response":${JSON.stringify(snapshot(inProgress))}`;
    return rawFrame('response.created', response) + rawFrame('response.in_progress', response);
  };

  /** An OpenAI upstream's own item id (once per answer), as the non-streamed answer keeps it. */
  const upstreamItemId = (extensions: Extensions | undefined, prefix: string): { itemId?: string } => {
    const id = extensions?.responses?.id;
    const taken = output.some((item) => item.id === id);
    return typeof id === 'string' && id.startsWith(prefix) && !taken ? { itemId: id } : {};
  };

  /** The block's item as it stands, without emitting anything. */
  const itemOf = (open: OpenBlock, status: ResponsesItemStatus, signature?: string, extensions?: Extensions): ResponsesOutputItem => {
    switch (open.kind) {
      case 'text':
      case 'refusal': {
        const part = open.kind === 'text' ? emptyTextPart(open.text) : refusalPart(open.text);
        return { id: open.itemId, type: 'message', status, role: 'assistant', content: [part] };
      }
      case 'reasoning':
        return encodeResponsesReasoningItem(
          open.itemId,
          {
            text: open.text,
            ...(signature === undefined ? {} : { signature }),
            ...(open.redactedData === undefined ? {} : { redactedData: open.redactedData }),
            ...(extensions === undefined ? {} : { extensions }),
          },
          status,
        );
      case 'tool': {
        const args = open.custom || status === 'in_progress' ? open.text : open.text || '{}';
        const call = {
          id: open.callId,
          name: open.name,
          arguments: args,
          ...(open.namespace === undefined ? {} : { namespace: open.namespace }),
        };
        return encodeResponsesToolCallItem(open.itemId, call, open.custom, status);
      }
    }
  };

  const open = (next: OpenBlock, item: ResponsesOutputItem): string => {
    block = next;
    output.push(item);
    return frame('response.output_item.added', { output_index: next.outputIndex, item });
  };

  const close = (status: ResponsesItemStatus, signature?: string, extensions?: Extensions): string => {
    const current = block;
    if (current === undefined) return '';
    block = undefined;
    const { itemId: item_id, outputIndex: output_index, text } = current;
    let out = '';
    if (current.kind === 'text') {
      out += frame('response.output_text.done', { item_id, output_index, content_index: 0, text, logprobs: [] });
      out += frame('response.content_part.done', { item_id, output_index, content_index: 0, part: emptyTextPart(text) });
    } else if (current.kind === 'refusal') {
      out += frame('response.refusal.done', { item_id, output_index, content_index: 0, refusal: text });
      out += frame('response.content_part.done', { item_id, output_index, content_index: 0, part: refusalPart(text) });
    } else if (current.kind === 'reasoning' && current.partOpen) {
      out += frame('response.reasoning_summary_text.done', { item_id, output_index, summary_index: 0, text });
      out += frame('response.reasoning_summary_part.done', {
        item_id,
        output_index,
        summary_index: 0,
        part: { type: 'summary_text', text },
      });
    } else if (current.kind === 'tool') {
      out += current.custom
        ? frame('response.custom_tool_call_input.done', { item_id, output_index, input: text })
        : frame('response.function_call_arguments.done', { item_id, output_index, name: current.name, arguments: text || '{}' });
    }
    const item = itemOf(current, status, signature, extensions);
    output[current.outputIndex] = item;
    return out + frame('response.output_item.done', { output_index: current.outputIndex, item });
  };

  const nextBlock = (id: string, prefix: 'msg' | 'rs' | 'fc' | 'ctc'): BlockBase => ({
    id,
    itemId: encodeResponsesItemId(context.requestId, prefix, output.length),
    outputIndex: output.length,
    text: '',
  });

  const delta = (id: string, kind: OpenBlock['kind'], value: string): string => {
    const current = block;
    if (current === undefined || current.id !== id || current.kind !== kind || value === '') return '';
    current.text += value;
    if (current.kind === 'text') {
      // The hot case, as a template: the bytes `frame` makes of these fields, in this order.
      return (
        `event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":${sequence++},` +
        `"item_id":${JSON.stringify(current.itemId)},"output_index":${current.outputIndex},"content_index":0,` +
        `"delta":${JSON.stringify(value)},"logprobs":[]}\n\n`
      );
    }
    const { itemId: item_id, outputIndex: output_index } = current;
    switch (current.kind) {
      case 'refusal':
        return frame('response.refusal.delta', { item_id, output_index, content_index: 0, delta: value });
      case 'reasoning': {
        let out = '';
        if (!current.partOpen) {
          current.partOpen = true;
          out += frame('response.reasoning_summary_part.added', {
            item_id,
            output_index,
            summary_index: 0,
            part: { type: 'summary_text', text: '' },
          });
        }
        return out + frame('response.reasoning_summary_text.delta', { item_id, output_index, summary_index: 0, delta: value });
      }
      case 'tool':
        return current.custom
          ? frame('response.custom_tool_call_input.delta', { item_id, output_index, delta: value })
          : frame('response.function_call_arguments.delta', { item_id, output_index, delta: value });
    }
  };

  const markLastIncomplete = (): void => {
    const last = output.at(-1);
    if (last !== undefined && 'status' in last) last.status = 'incomplete';
  };

  const finish = (finishReason: FinishReason, usage: Usage): string => {
    const hasToolCalls = output.some((item) => item.type === 'function_call' || item.type === 'custom_tool_call');
    const terminal = encodeResponsesFinishReason(finishReason, hasToolCalls);
    const out = close(terminal.status === 'incomplete' ? 'incomplete' : 'completed');
    if (terminal.status === 'incomplete') markLastIncomplete();
    const failed = terminal.status === 'failed';
    const response = snapshot({
      status: terminal.status,
      usage: encodeResponsesUsage(usage),
      error: failed ? { code: 'server_error', message: 'The model failed to produce an answer.' } : null,
      incompleteDetails: terminal.incomplete_details,
    });
    return out + frame(`response.${terminal.status}`, { response });
  };

  const fail = (error: GatewayError): string => {
    if (block !== undefined) {
      output[block.outputIndex] = itemOf(block, 'incomplete');
      block = undefined;
    }
    const response = snapshot({
      status: 'failed',
      usage: null,
      error: { code: encodeResponsesErrorCode(error), message: error.message },
      incompleteDetails: null,
    });
    return frame('response.failed', { response });
  };

  return {
    encode(event: CanonicalStreamEvent): string {
      if (ended) return '';
      if (event.type === 'start') return start(event.id);
      let out = start();
      switch (event.type) {
        case 'text-start':
        case 'refusal-start': {
          out += close('completed');
          const kind = event.type === 'text-start' ? 'text' : 'refusal';
          const next: OpenBlock = { ...nextBlock(event.id, 'msg'), ...upstreamItemId(event.extensions, 'msg_'), kind };
          out += open(next, { id: next.itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] });
          const part = kind === 'text' ? emptyTextPart('') : refusalPart('');
          return (
            out + frame('response.content_part.added', { item_id: next.itemId, output_index: next.outputIndex, content_index: 0, part })
          );
        }
        case 'reasoning-start': {
          out += close('completed');
          const next: OpenBlock = {
            ...nextBlock(event.id, 'rs'),
            // An OpenAI upstream's own item id, so a client replaying the item (with its encrypted content) names it.
            ...upstreamItemId(event.extensions, 'rs_'),
            kind: 'reasoning',
            partOpen: false,
            ...(event.redactedData === undefined ? {} : { redactedData: event.redactedData }),
          };
          return out + open(next, { id: next.itemId, type: 'reasoning', summary: [] });
        }
        case 'tool-call-start': {
          out += close('completed');
          const custom = isResponsesCustomTool(event.name, context.request);
          const next: OpenBlock = {
            ...nextBlock(event.id, custom ? 'ctc' : 'fc'),
            ...upstreamItemId(event.extensions, custom ? 'ctc_' : 'fc_'),
            kind: 'tool',
            callId: event.toolCallId,
            name: event.name,
            ...(event.namespace === undefined ? {} : { namespace: event.namespace }),
            custom,
          };
          return out + open(next, itemOf(next, 'in_progress'));
        }
        case 'text-delta':
          return out + delta(event.id, 'text', event.delta);
        case 'refusal-delta':
          return out + delta(event.id, 'refusal', event.delta);
        case 'reasoning-delta':
          return out + delta(event.id, 'reasoning', event.delta);
        case 'tool-call-delta':
          return out + delta(event.id, 'tool', event.delta);
        case 'text-end':
        case 'refusal-end':
        case 'tool-call-end':
          return block?.id === event.id ? out + close('completed') : out;
        case 'reasoning-end':
          return block?.id === event.id ? out + close('completed', event.signature, event.extensions) : out;
        case 'finish':
          ended = true;
          return out + finish(event.finishReason, event.usage);
        case 'provider-start': {
          // Another protocol's own blocks (server tools) have no Responses form; the tools that
          // make them are refused for Responses callers before the provider is called.
          if (event.protocol !== 'responses') return out;
          out += close('completed');
          const item = { ...event.data, type: event.kind };
          providerItem = { id: event.id, outputIndex: output.length, item };
          output.push(item);
          return out + frame('response.output_item.added', { output_index: providerItem.outputIndex, item });
        }
        case 'provider-delta':
          return out;
        case 'provider-end': {
          if (providerItem?.id !== event.id) return out;
          const { outputIndex, item } = providerItem;
          providerItem = undefined;
          return out + frame('response.output_item.done', { output_index: outputIndex, item });
        }
        case 'error':
          ended = true;
          return out + fail(event.error);
      }
    },
  };
}
