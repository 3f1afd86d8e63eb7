import type { CanonicalResponse, CanonicalStreamEvent } from '../canonical/index.js';

/** A whole answer as the stream events that would have carried it (a stage's answer to a streamed request). */
export function eventsOfResponse(response: CanonicalResponse): CanonicalStreamEvent[] {
  const events: CanonicalStreamEvent[] = [{ type: 'start', id: response.id, model: response.model }];
  response.content.forEach((part, index) => {
    const id = String(index);
    switch (part.type) {
      case 'text':
        events.push({ type: 'text-start', id }, { type: 'text-delta', id, delta: part.text }, { type: 'text-end', id });
        break;
      case 'reasoning':
        events.push(
          part.redactedData === undefined
            ? { type: 'reasoning-start', id }
            : { type: 'reasoning-start', id, redactedData: part.redactedData },
          { type: 'reasoning-delta', id, delta: part.text },
          part.signature === undefined ? { type: 'reasoning-end', id } : { type: 'reasoning-end', id, signature: part.signature },
        );
        break;
      case 'tool-call':
        events.push(
          {
            type: 'tool-call-start',
            id,
            toolCallId: part.id,
            name: part.name,
            ...(part.namespace === undefined ? {} : { namespace: part.namespace }),
          },
          { type: 'tool-call-delta', id, delta: part.arguments },
          { type: 'tool-call-end', id },
        );
        break;
      case 'refusal':
        events.push({ type: 'refusal-start', id }, { type: 'refusal-delta', id, delta: part.text }, { type: 'refusal-end', id });
        break;
      case 'provider-defined':
        events.push(
          { type: 'provider-start', id, protocol: part.protocol, kind: part.kind, data: part.data },
          { type: 'provider-end', id },
        );
        break;
    }
  });
  events.push(
    response.stopSequence === undefined
      ? { type: 'finish', finishReason: response.finishReason, usage: response.usage }
      : { type: 'finish', finishReason: response.finishReason, usage: response.usage, stopSequence: response.stopSequence },
  );
  return events;
}
