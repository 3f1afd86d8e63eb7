import type { AssistantContentPart, CanonicalResponse, CanonicalStreamEvent } from '../../src/index.js';

/** A streamed answer's events put back together as one answer; undefined unless it finished. */
export function assembleResponse(events: readonly CanonicalStreamEvent[]): CanonicalResponse | undefined {
  let id = '';
  let model = '';
  const parts = new Map<string, AssistantContentPart>();
  for (const event of events) {
    switch (event.type) {
      case 'start':
        id = event.id;
        model = event.model;
        break;
      case 'text-start':
        parts.set(event.id, { type: 'text', text: '' });
        break;
      case 'reasoning-start':
        parts.set(
          event.id,
          event.redactedData === undefined
            ? { type: 'reasoning', text: '' }
            : { type: 'reasoning', text: '', redactedData: event.redactedData },
        );
        break;
      case 'refusal-start':
        parts.set(event.id, { type: 'refusal', text: '' });
        break;
      case 'tool-call-start':
        parts.set(event.id, {
          type: 'tool-call',
          id: event.toolCallId,
          name: event.name,
          arguments: '',
          ...(event.namespace === undefined ? {} : { namespace: event.namespace }),
        });
        break;
      case 'text-delta':
      case 'reasoning-delta':
      case 'refusal-delta': {
        const part = parts.get(event.id);
        if (part !== undefined && 'text' in part) part.text += event.delta;
        break;
      }
      case 'tool-call-delta': {
        const part = parts.get(event.id);
        if (part?.type === 'tool-call') part.arguments += event.delta;
        break;
      }
      case 'reasoning-end': {
        const part = parts.get(event.id);
        if (part?.type === 'reasoning' && event.signature !== undefined) part.signature = event.signature;
        break;
      }
      case 'finish':
        return {
          id,
          model,
          content: [...parts.values()],
          finishReason: event.finishReason,
          usage: event.usage,
          ...(event.stopSequence === undefined ? {} : { stopSequence: event.stopSequence }),
        };
      default:
        break;
    }
  }
  return undefined;
}
