import { describe, expect, it } from 'vitest';
import { chatCodec } from '../../src/protocols/chat-completions/index.js';
import { messagesCodec } from '../../src/protocols/messages/index.js';
import { misdirectedBodyError } from '../../src/protocols/misdirected-body.js';
import { responsesCodec } from '../../src/protocols/responses/index.js';
import { gatewayErrorOf } from '../helpers/gateway-error-of.js';

const hello = [{ role: 'user', content: 'Hello' }];

describe('misdirectedBodyError', () => {
  describe('sent to /v1/responses', () => {
    it('should send a Chat Completions body to /v1/chat/completions', () => {
      expect(misdirectedBodyError({ model: 'm', messages: hello }, 'responses')).toMatchObject({
        status: 400,
        code: 'WRONG_ENDPOINT',
        param: 'messages',
        message: 'This looks like a Chat Completions body: send it to /v1/chat/completions, or use `input` here.',
      });
    });

    it('should send a body with a top-level system prompt (Messages) to /v1/messages', () => {
      expect(misdirectedBodyError({ model: 'm', max_tokens: 9, system: 'Be brief.', messages: hello }, 'responses')?.message).toBe(
        'This looks like a Messages body: send it to /v1/messages, or use `input` (and `instructions` for the system prompt) here.',
      );
    });

    it('should leave a body with input alone, messages or not', () => {
      expect(misdirectedBodyError({ model: 'm', input: 'Hi', messages: hello }, 'responses')).toBeUndefined();
      expect(misdirectedBodyError({ model: 'm', previous_response_id: 'resp_1' }, 'responses')).toBeUndefined();
    });
  });

  describe('sent to /v1/chat/completions', () => {
    it('should send a Responses body to /v1/responses', () => {
      expect(misdirectedBodyError({ model: 'm', input: 'Hi' }, 'chat')).toMatchObject({
        param: 'input',
        message: 'This looks like a Responses body: send it to /v1/responses, or use `messages` here.',
      });
    });

    it('should leave a body without either alone (the schema names the missing field)', () => {
      expect(misdirectedBodyError({ model: 'm' }, 'chat')).toBeUndefined();
      expect(misdirectedBodyError('not an object', 'chat')).toBeUndefined();
    });
  });

  describe('sent to /v1/messages', () => {
    it('should send a Responses body to /v1/responses', () => {
      expect(misdirectedBodyError({ model: 'm', max_tokens: 9, input: 'Hi' }, 'messages')?.message).toBe(
        'This looks like a Responses body: send it to /v1/responses, or use `messages` here.',
      );
    });

    it('should send a Chat conversation (developer or tool messages) to /v1/chat/completions', () => {
      expect(misdirectedBodyError({ model: 'm', messages: [{ role: 'developer', content: 'x' }, ...hello] }, 'messages')?.message).toBe(
        'This looks like a Chat Completions body: send it to /v1/chat/completions, or use the Messages shapes here: ' +
          'instructions in the top-level `system`, tool results as `tool_result` blocks in a user message.',
      );
    });

    it('should leave a Messages conversation alone, mid-conversation system turns included', () => {
      expect(misdirectedBodyError({ model: 'm', messages: hello }, 'messages')).toBeUndefined();
      expect(
        misdirectedBodyError({ model: 'm', messages: [...hello, { role: 'system', content: [{ type: 'text', text: 'x' }] }] }, 'messages'),
      ).toBeUndefined();
    });
  });

  describe('through the decoders', () => {
    it('should be what each endpoint answers for another API body', () => {
      expect(gatewayErrorOf(() => responsesCodec.decodeRequest({ model: 'm', messages: hello })).code).toBe('WRONG_ENDPOINT');
      expect(gatewayErrorOf(() => chatCodec.decodeRequest({ model: 'm', input: 'Hi' })).code).toBe('WRONG_ENDPOINT');
      expect(gatewayErrorOf(() => messagesCodec.decodeRequest({ model: 'm', max_tokens: 9, input: 'Hi' })).code).toBe('WRONG_ENDPOINT');
      expect(
        gatewayErrorOf(() => messagesCodec.decodeRequest({ model: 'm', max_tokens: 9, messages: [{ role: 'tool', content: 'x' }] })).code,
      ).toBe('WRONG_ENDPOINT');
    });

    it('should leave other bad bodies to the schema', () => {
      expect(gatewayErrorOf(() => chatCodec.decodeRequest({ model: 'm' }))).toMatchObject({
        code: 'INVALID_REQUEST_BODY',
        param: 'messages',
      });
      expect(gatewayErrorOf(() => messagesCodec.decodeRequest({ model: 'm', messages: hello }))).toMatchObject({
        code: 'INVALID_REQUEST_BODY',
      });
    });
  });
});
