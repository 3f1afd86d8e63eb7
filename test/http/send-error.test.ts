import type { OutgoingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/canonical/index.js';
import { readAnswerNote } from '../../src/http/request-log-notes.js';
import { sendError } from '../../src/http/send-error.js';
import type { HttpResponse } from '../../src/http/types.js';
import type { InboundCodec } from '../../src/protocols/codec.js';
import { chatCodec } from '../../src/protocols/chat-completions/index.js';
import { messagesCodec } from '../../src/protocols/messages/index.js';
import { responsesCodec } from '../../src/protocols/responses/index.js';

/** A response that keeps what `writeHead` was given, its headers as an object (a flat `[name, value, …]` list read as Node reads it). */
function fakeResponse() {
  const written: { status?: number; headers?: OutgoingHttpHeaders } = {};
  const res = {
    writeHead(status: number, given: OutgoingHttpHeaders | string[]) {
      let headers: OutgoingHttpHeaders = {};
      if (Array.isArray(given)) for (let index = 0; index < given.length; index += 2) headers[given[index]!] = given[index + 1];
      else headers = given;
      Object.assign(written, { status, headers });
      return this;
    },
    end() {},
  } as unknown as HttpResponse;
  return { res, written };
}

const codecs: Array<[string, InboundCodec]> = [
  ['chat', chatCodec],
  ['responses', responsesCodec],
  ['messages', messagesCodec],
];

describe('sendError', () => {
  describe.each(codecs)('x-should-retry in %s', (_name, codec) => {
    it.each([
      ['false', 'a wrong key (401)', new GatewayError({ kind: 'authentication', code: 'INVALID_API_KEY', message: 'no' })],
      [
        'false',
        "the provider refusing the gateway's credentials (502)",
        new GatewayError({ kind: 'upstream', code: 'UPSTREAM_AUTHENTICATION_FAILED', status: 502, retryable: false, message: 'no' }),
      ],
      ['false', 'a spent budget', new GatewayError({ kind: 'quota', code: 'BUDGET_EXCEEDED', retryable: false, message: 'no' })],
      [
        'false',
        'a request larger than a token limit (429)',
        new GatewayError({ kind: 'rate_limit', code: 'RATE_LIMITED', retryable: false, message: 'no' }),
      ],
      [
        'true',
        'a rate limit with retry-after',
        new GatewayError({ kind: 'rate_limit', code: 'RATE_LIMITED', retryAfter: 2, message: 'wait' }),
      ],
      ['true', 'the gateway shutting down', new GatewayError({ kind: 'overloaded', code: 'SHUTTING_DOWN', message: 'retry' })],
    ])('should send %s for %s', (expected, _what, error) => {
      const { res, written } = fakeResponse();
      sendError(res, codec, error, 'req_1');
      expect(written.headers?.['x-should-retry']).toBe(expected);
    });
  });

  it("should note the error's code and the request id for a request log, without sending them as headers", () => {
    const { res, written } = fakeResponse();
    sendError(res, messagesCodec, new GatewayError({ kind: 'not_found', code: 'UNKNOWN_MODEL', message: 'no' }), 'req_2');
    expect(readAnswerNote(res)).toEqual({ requestId: 'req_2', errorCode: 'UNKNOWN_MODEL', model: undefined, recorded: false });
    expect(Object.keys(written.headers ?? {}).sort()).toEqual([
      'Content-Length',
      'Content-Type',
      'request-id',
      'x-request-id',
      'x-should-retry',
    ]);
  });
});
