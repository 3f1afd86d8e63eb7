import type { RequestRecord } from '../../src/usage/record-stage.js';

/** A finished Chat request as the "record" stage receives it: answered 200 after one attempt; `overrides` set the rest. */
export function requestRecord(overrides: Partial<RequestRecord> = {}): RequestRecord {
  return {
    requestId: 'req_a',
    caller: undefined,
    protocol: 'chat',
    model: 'gpt',
    provider: 'openai',
    upstreamModel: 'gpt',
    stream: false,
    status: 200,
    errorCode: undefined,
    usage: undefined,
    upstream: undefined,
    startedAt: 1_000,
    durationMs: 10,
    attempts: 1,
    firstOutputMs: undefined,
    userAgent: undefined,
    cut: undefined,
    ...overrides,
  };
}
