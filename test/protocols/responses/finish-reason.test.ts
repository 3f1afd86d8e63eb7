import { describe, expect, it } from 'vitest';
import { decodeResponsesFinishReason, encodeResponsesFinishReason } from '../../../src/protocols/responses/finish-reason.js';

describe('encodeResponsesFinishReason', () => {
  it.each([
    { unified: 'stop', status: 'completed', details: null },
    { unified: 'tool-calls', status: 'completed', details: null },
    { unified: 'other', status: 'completed', details: null },
    { unified: 'length', status: 'incomplete', details: { reason: 'max_output_tokens' } },
    { unified: 'content-filter', status: 'incomplete', details: { reason: 'content_filter' } },
    { unified: 'error', status: 'failed', details: null },
  ] as const)('should encode $unified as $status', ({ unified, status, details }) => {
    expect(encodeResponsesFinishReason({ unified }, false)).toEqual({ status, incomplete_details: details });
  });

  it('should report completed when the answer holds tool calls, whatever the provider said', () => {
    expect(encodeResponsesFinishReason({ unified: 'length', raw: 'max_tokens' }, true).status).toBe('completed');
    expect(encodeResponsesFinishReason({ unified: 'error' }, true).status).toBe('failed');
  });
});

describe('decodeResponsesFinishReason', () => {
  it.each([
    { status: 'completed', reason: undefined, tools: false, expected: { unified: 'stop', raw: 'completed' } },
    { status: 'completed', reason: undefined, tools: true, expected: { unified: 'tool-calls', raw: 'completed' } },
    { status: 'incomplete', reason: 'max_output_tokens', tools: false, expected: { unified: 'length', raw: 'max_output_tokens' } },
    { status: 'incomplete', reason: 'content_filter', tools: false, expected: { unified: 'content-filter', raw: 'content_filter' } },
    { status: 'incomplete', reason: 'max_messages', tools: false, expected: { unified: 'other', raw: 'max_messages' } },
    { status: 'failed', reason: undefined, tools: false, expected: { unified: 'error', raw: 'failed' } },
    { status: 'cancelled', reason: undefined, tools: false, expected: { unified: 'other', raw: 'cancelled' } },
  ])('should decode $status/$reason', ({ status, reason, tools, expected }) => {
    expect(decodeResponsesFinishReason(status, reason, tools)).toEqual(expected);
  });
});
