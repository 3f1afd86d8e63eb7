import Anthropic from '@anthropic-ai/sdk';
import Anthropic0 from 'anthropic-sdk-0';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

let running: RunningGateway;
beforeAll(async () => {
  running = await startGateway({ bodyLimit: '64kb' });
});
afterAll(() => running.close());

const chatBody = { model: 'mock', messages: [{ role: 'user', content: 'Hi' }] };
const messagesBody = { model: 'mock', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] };

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${running.root}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}

const bearer = { authorization: `Bearer ${TEST_KEY}` };
const anthropicHeaders = { 'x-api-key': TEST_KEY, 'anthropic-version': '2023-06-01' };

function expectOpenAIError(result: Awaited<ReturnType<typeof post>>, status: number, code: string) {
  expect(result.status).toBe(status);
  expect(result.headers.get('x-request-id')).toMatch(/^req_/);
  expect(result.body.error).toEqual(expect.objectContaining({ message: expect.any(String), type: expect.any(String), code }));
}

function expectAnthropicError(result: Awaited<ReturnType<typeof post>>, status: number, type: string) {
  expect(result.status).toBe(status);
  expect(result.headers.get('request-id')).toMatch(/^req_/);
  expect(result.body).toEqual({
    type: 'error',
    error: expect.objectContaining({ type, message: expect.any(String) }),
    request_id: result.headers.get('request-id'),
  });
}

describe('errors over raw HTTP', () => {
  describe('authentication', () => {
    it('should answer a missing key with 401 in each protocol', async () => {
      expectOpenAIError(await post('/v1/chat/completions', chatBody), 401, 'missing_api_key');
      expectOpenAIError(await post('/v1/responses', { model: 'mock', input: 'Hi' }), 401, 'missing_api_key');
      expectAnthropicError(await post('/v1/messages', messagesBody, { 'anthropic-version': '2023-06-01' }), 401, 'authentication_error');
    });

    it('should answer a wrong key with 401 invalid_api_key', async () => {
      expectOpenAIError(await post('/v1/chat/completions', chatBody, { authorization: 'Bearer nope' }), 401, 'invalid_api_key');
    });

    it('should diagnose Bearer Bearer', async () => {
      const result = await post('/v1/chat/completions', chatBody, { authorization: `Bearer Bearer ${TEST_KEY}` });
      expectOpenAIError(result, 401, 'double_bearer');
      expect(result.body.error.message).toContain('Bearer Bearer');
    });

    it('should not accept x-api-key on OpenAI endpoints', async () => {
      expectOpenAIError(await post('/v1/chat/completions', chatBody, { 'x-api-key': TEST_KEY }), 401, 'missing_api_key');
    });
  });

  describe('anthropic-version', () => {
    it('should require the header on /v1/messages with a clear 400', async () => {
      const result = await post('/v1/messages', messagesBody, { 'x-api-key': TEST_KEY });
      expectAnthropicError(result, 400, 'invalid_request_error');
      expect(result.body.error.message).toContain('anthropic-version');
    });

    it("should accept both SDK lines' versions", async () => {
      for (const version of ['2023-06-01', '2026-10-21']) {
        const result = await post('/v1/messages', messagesBody, { 'x-api-key': TEST_KEY, 'anthropic-version': version });
        expect(result.status).toBe(200);
      }
    });
  });

  describe('wrong base URL', () => {
    it('should diagnose /v1/v1/ and name the right base URL', async () => {
      const result = await post('/v1/v1/chat/completions', chatBody, bearer);
      expectOpenAIError(result, 404, 'double_v1_path');
      expect(result.body.error.message).toContain(`${running.root}/v1`);
    });

    it('should diagnose /v1/v1/messages in Anthropic form, as a 400 (Claude Code reads a 404 there as a missing model)', async () => {
      const result = await post('/v1/v1/messages', messagesBody, anthropicHeaders);
      expectAnthropicError(result, 400, 'invalid_request_error');
      expect(result.body.error.message).toContain(running.root);
    });

    it('should diagnose an endpoint path without /v1', async () => {
      const chat = await post('/chat/completions', chatBody, bearer);
      expectOpenAIError(chat, 404, 'missing_v1_path');
      expect(chat.body.error.message).toContain(`${running.root}/v1`);
      expectOpenAIError(await post('/responses', { model: 'mock', input: 'x' }, bearer), 404, 'missing_v1_path');
      expectAnthropicError(await post('/messages', messagesBody, anthropicHeaders), 400, 'invalid_request_error');
    });
  });

  describe('request body', () => {
    it('should answer an unknown model with 404 and the closest id', async () => {
      const result = await post('/v1/chat/completions', { ...chatBody, model: 'mocky' }, bearer);
      expectOpenAIError(result, 404, 'model_not_found');
      expect(result.body.error.message).toContain("'mock'");
      const anthropic = await post('/v1/messages', { ...messagesBody, model: 'mokc' }, anthropicHeaders);
      expectAnthropicError(anthropic, 404, 'not_found_error');
    });

    it('should answer malformed JSON with 400', async () => {
      expectOpenAIError(await post('/v1/chat/completions', '{"model": ', bearer), 400, 'invalid_json');
      expectAnthropicError(await post('/v1/messages', '{"model": ', anthropicHeaders), 400, 'invalid_request_error');
    });

    it('should answer a bad field with 400 naming it', async () => {
      const chat = await post('/v1/chat/completions', { model: 'mock', messages: 'hello' }, bearer);
      expectOpenAIError(chat, 400, 'invalid_request_body');
      expect(chat.body.error.param).toBe('messages');
      const messages = await post('/v1/messages', { model: 'mock', messages: [] }, anthropicHeaders);
      expectAnthropicError(messages, 400, 'invalid_request_error');
      expect(messages.body.error.message).toContain('max_tokens');
      const responses = await post('/v1/responses', { model: 'mock', input: 42 }, bearer);
      expectOpenAIError(responses, 400, 'invalid_request_body');
      expect(responses.body.error.param).toBe('input');
    });

    it('should answer an oversize body with 413 in protocol form', async () => {
      const huge = 'x'.repeat(70 * 1024);
      const chat = await post('/v1/chat/completions', { model: 'mock', messages: [{ role: 'user', content: huge }] }, bearer);
      expectOpenAIError(chat, 413, 'request_too_large');
      const messages = await post('/v1/messages', { ...messagesBody, messages: [{ role: 'user', content: huge }] }, anthropicHeaders);
      expectAnthropicError(messages, 413, 'request_too_large');
    });

    it('should refuse a feature the model cannot carry instead of dropping it', async () => {
      const result = await post('/v1/chat/completions', { ...chatBody, n: 2 }, bearer);
      expectOpenAIError(result, 400, 'unsupported_feature');
      expect(result.body.error.message).toContain("'n'");
    });
  });

  it('should answer a wrong method on an endpoint with 405', async () => {
    const response = await fetch(`${running.root}/v1/chat/completions`, { headers: bearer });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('errors through the official SDKs', () => {
  it('should raise AuthenticationError with the request id in openai', async () => {
    const client = new OpenAI({ apiKey: 'wrong', baseURL: running.openAIBaseURL, maxRetries: 0 });
    const error = await client.chat.completions.create(chatBody as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).requestID).toMatch(/^req_/);
  });

  it('should raise NotFoundError for an unknown model in openai responses', async () => {
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const error = await client.responses.create({ model: 'gpt-nope', input: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
  });

  it('should raise NotFoundError naming the base URL when the openai client is given /v1/v1', async () => {
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: `${running.openAIBaseURL}/v1`, maxRetries: 0 });
    const error = await client.chat.completions.create(chatBody as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(String((error as Error).message)).toContain(running.openAIBaseURL);
  });

  it('should raise AuthenticationError and BadRequestError in both Anthropic SDK lines', async () => {
    type Create = (key: string) => { create(body: unknown): Promise<unknown> };
    const lines: Array<{ create: Create; errors: typeof Anthropic | typeof Anthropic0 }> = [
      { create: (key) => new Anthropic({ apiKey: key, baseURL: running.root, maxRetries: 0 }).messages as never, errors: Anthropic },
      { create: (key) => new Anthropic0({ apiKey: key, baseURL: running.root, maxRetries: 0 }).messages as never, errors: Anthropic0 },
    ];
    for (const { create, errors } of lines) {
      const authError = await create('wrong')
        .create(messagesBody as never)
        .catch((caught: unknown) => caught);
      expect(authError).toBeInstanceOf(errors.AuthenticationError);
      expect((authError as { requestID?: string }).requestID).toMatch(/^req_/);

      const badRequest = await create(TEST_KEY)
        .create({ model: 'mock', max_tokens: -1, messages: [{ role: 'user', content: 'x' }] } as never)
        .catch((caught: unknown) => caught);
      expect(badRequest).toBeInstanceOf(errors.BadRequestError);
    }
  });

  it('should raise BadRequestError when an Anthropic client is given a base URL ending in /v1', async () => {
    const client = new Anthropic({ apiKey: TEST_KEY, baseURL: `${running.root}/v1`, maxRetries: 0 });
    const error = await client.messages.create(messagesBody as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((error as Error).message)).toContain('/v1/v1/');
  });
});
