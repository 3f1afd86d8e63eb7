import { describe, expect, it } from 'vitest';
import type { CanonicalStreamEvent } from '../../src/canonical/index.js';
import { checkStreamEvents } from '../../src/testing/check-stream-events.js';

const start: CanonicalStreamEvent = { type: 'start', id: 's', model: 'm' };
const finish: CanonicalStreamEvent = { type: 'finish', finishReason: { unified: 'stop' }, usage: {} };

describe('checkStreamEvents: refusal blocks', () => {
  it('should accept a refusal block between other blocks', () => {
    const events: CanonicalStreamEvent[] = [
      start,
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Partly.' },
      { type: 'text-end', id: 't' },
      { type: 'refusal-start', id: 'r' },
      { type: 'refusal-delta', id: 'r', delta: 'Not that.' },
      { type: 'refusal-end', id: 'r' },
      finish,
    ];
    expect(checkStreamEvents(events)).toEqual([]);
  });

  it('should flag a refusal delta sent to a text block and a refusal block left open', () => {
    const events: CanonicalStreamEvent[] = [
      start,
      { type: 'text-start', id: 't' },
      { type: 'refusal-delta', id: 't', delta: 'No.' },
      { type: 'text-end', id: 't' },
      { type: 'refusal-start', id: 'r' },
      finish,
    ];
    expect(checkStreamEvents(events)).toEqual([
      "event 2 (refusal-delta): block 't' is not the open refusal block",
      "event 5 (finish): block 'r' is still open",
    ]);
  });
});
