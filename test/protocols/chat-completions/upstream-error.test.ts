import { describe, expect, it } from 'vitest';
import { parseChatError } from '../../../src/protocols/chat-completions/index.js';

describe('parseChatError', () => {
  describe('status', () => {
    it.each([
      [400, 'invalid_request', false],
      [404, 'not_found', false],
      [408, 'timeout', true],
      [422, 'invalid_request', false],
      [429, 'rate_limit', true],
      [500, 'upstream', true],
      [503, 'overloaded', true],
      [529, 'overloaded', true],
    ] as const)('should map %i to kind %s with retryable %s', (status, kind, retryable) => {
      expect(parseChatError(status, { error: { message: 'x' } })).toMatchObject({ status, kind, retryable });
    });

    it("should read a 401 as a non-retryable authentication error (the transport makes it the gateway's 502)", () => {
      const error = parseChatError(401, { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } });
      expect(error).toMatchObject({ status: 401, kind: 'authentication', retryable: false, code: 'INVALID_API_KEY' });
      expect(error.message).toBe('Incorrect API key provided');
    });

    it('should not retry a 429 for insufficient quota', () => {
      const body = { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } };
      expect(parseChatError(429, body)).toMatchObject({ kind: 'rate_limit', retryable: false, code: 'INSUFFICIENT_QUOTA' });
    });
  });

  describe('body shapes', () => {
    it('should keep OpenAI message, code and param', () => {
      const body = {
        error: {
          message: "This model's maximum context length is 128000 tokens.",
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      };
      expect(parseChatError(400, body)).toMatchObject({
        message: "This model's maximum context length is 128000 tokens.",
        code: 'CONTEXT_LENGTH_EXCEEDED',
        param: 'messages',
      });
    });

    it('should use a status code when the body code is not a word (vLLM, llama.cpp, Azure)', () => {
      expect(parseChatError(400, { error: { message: 'bad', type: 'BadRequestError', code: 400 } }).code).toBe('UPSTREAM_INVALID_REQUEST');
      expect(parseChatError(404, { error: { message: 'nope', code: 'DeploymentNotFound' } }).code).toBe('UPSTREAM_NOT_FOUND');
      expect(parseChatError(429, { error: { message: 'slow' } }).code).toBe('RATE_LIMITED');
    });

    it('should read a string error (LM Studio)', () => {
      const body = { error: "'response_format.type' must be 'json_schema' or 'text'" };
      expect(parseChatError(400, body).message).toBe("'response_format.type' must be 'json_schema' or 'text'");
    });

    it('should read flat bodies (Mistral, old vLLM)', () => {
      const body = { object: 'error', message: 'Invalid model: foo', type: 'invalid_model', param: null, code: '1500' };
      expect(parseChatError(400, body)).toMatchObject({ message: 'Invalid model: foo', code: 'UPSTREAM_INVALID_REQUEST' });
    });

    it('should read pydantic detail lists', () => {
      const body = { detail: [{ type: 'extra_forbidden', loc: ['body', 'stream_options'], msg: 'Extra inputs are not permitted' }] };
      expect(parseChatError(422, body).message).toBe('body.stream_options: Extra inputs are not permitted');
    });

    it('should read an object message as JSON text', () => {
      const body = { object: 'error', message: { detail: [{ msg: 'Extra inputs are not permitted' }] } };
      expect(parseChatError(422, body).message).toContain('Extra inputs are not permitted');
    });

    it('should keep the text of an HTML proxy page', () => {
      expect(parseChatError(502, '<html><body><h1>502 Bad Gateway</h1></body></html>').message).toBe('502 Bad Gateway');
    });

    it('should say the status when there is no message at all', () => {
      expect(parseChatError(500, '').message).toBe('The provider answered with status 500 and no error message.');
    });
  });
});
