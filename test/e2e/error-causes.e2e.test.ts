import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZeroConfig } from '../../src/server/zero-config.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

/*
 * Errors that name the real cause and the fix, as a client sees them through the official SDKs:
 * a misspelt field, a body sent to another API's endpoint, a key sent without `Bearer `, a model
 * whose provider key is not set.
 */

let running: RunningGateway;
beforeAll(async () => {
  // The zero-config server's options without any provider key: the mock model, and OpenAI's,
  // Anthropic's and Gemini's default models known but unavailable.
  running = await startGateway(createZeroConfig({}).gateway);
});
afterAll(() => running.close());

const openai = () => new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
const anthropic = () => new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
const hello = [{ role: 'user' as const, content: 'Hello' }];

/** The SDK error a call fails with. */
async function failure(
  call: Promise<unknown>,
): Promise<{ status?: number; message: string; code?: string | null; param?: string | null; error?: unknown }> {
  return call.then(
    () => expect.unreachable('the call should fail') as never,
    (error: unknown) => error as { status?: number; message: string },
  );
}

describe('a field that is not part of the API', () => {
  it('should say a misspelt Chat field is not a Chat Completions field and suggest the right one', async () => {
    const error = await failure(openai().chat.completions.create({ model: 'mock', messages: hello, temprature: 0.2 } as never));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'unknown_field', param: 'temprature' });
    expect(error.message).toBe(
      "400 'temprature' is not a field of the Chat Completions API. Did you mean 'temperature'? The model 'mock' does not take it as an extra field.",
    );
  });

  it('should say so for a Responses body too', async () => {
    const error = await failure(openai().responses.create({ model: 'mock', input: 'Hi', max_output_token: 50 } as never));
    expect(error).toMatchObject({ status: 400, code: 'unknown_field', param: 'max_output_token' });
    expect(error.message).toContain("'max_output_token' is not a field of the Responses API. Did you mean 'max_output_tokens'?");
  });

  it('should say so for a Messages body too', async () => {
    const error = await failure(
      anthropic().messages.create({ model: 'mock', max_tokens: 50, messages: hello, stop_sequence: ['x'] } as never),
    );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.message).toContain("'stop_sequence' is not a field of the Messages API. Did you mean 'stop_sequences'?");
  });

  it("should say how the API says another API's field", async () => {
    const error = await failure(anthropic().messages.create({ model: 'mock', max_tokens: 50, messages: hello, stop: ['x'] } as never));
    expect(error.message).toContain(
      "'stop' is not a field of the Messages API: it calls this 'stop_sequences'. The model 'mock' does not take it as an extra field.",
    );
  });

  it('should ask for the field to be removed when no field is close', async () => {
    const error = await failure(openai().chat.completions.create({ model: 'mock', messages: hello, zzz_custom_flag: true } as never));
    expect(error.message).toBe(
      "400 'zzz_custom_flag' is not a field of the Chat Completions API, and the model 'mock' does not take it as an extra field. Remove it from the request.",
    );
  });

  it('should still blame the model for a Chat field it cannot carry', async () => {
    const error = await failure(openai().chat.completions.create({ model: 'mock', messages: hello, logprobs: true }));
    expect(error).toMatchObject({ status: 400, code: 'unsupported_feature', param: 'logprobs' });
    expect(error.message).toContain("The model 'mock' does not support the 'logprobs' field");
  });
});

describe('a body sent to the wrong endpoint', () => {
  it('should send a Chat Completions body from /v1/responses to /v1/chat/completions', async () => {
    const error = await failure(openai().responses.create({ model: 'mock', messages: hello } as never));
    expect(error).toMatchObject({ status: 400, code: 'wrong_endpoint', param: 'messages' });
    expect(error.message).toBe('400 This looks like a Chat Completions body: send it to /v1/chat/completions, or use `input` here.');
  });

  it('should send a Messages body from /v1/responses to /v1/messages', async () => {
    const error = await failure(
      openai().responses.create({ model: 'mock', max_tokens: 50, system: 'Be brief.', messages: hello } as never),
    );
    expect(error.message).toBe(
      '400 This looks like a Messages body: send it to /v1/messages, or use `input` (and `instructions` for the system prompt) here.',
    );
  });

  it('should send a Responses body from /v1/chat/completions to /v1/responses', async () => {
    const error = await failure(openai().chat.completions.create({ model: 'mock', input: 'Hello' } as never));
    expect(error).toMatchObject({ status: 400, code: 'wrong_endpoint', param: 'input' });
    expect(error.message).toBe('400 This looks like a Responses body: send it to /v1/responses, or use `messages` here.');
  });

  it('should send a Responses body from /v1/messages to /v1/responses', async () => {
    const error = await failure(anthropic().messages.create({ model: 'mock', max_tokens: 50, input: 'Hello' } as never));
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.message).toContain('This looks like a Responses body: send it to /v1/responses, or use `messages` here.');
  });

  it('should send a Chat conversation (a developer message) from /v1/messages to /v1/chat/completions', async () => {
    const messages = [{ role: 'developer', content: 'Be brief.' }, ...hello];
    const error = await failure(anthropic().messages.create({ model: 'mock', max_tokens: 50, messages } as never));
    expect(error.message).toContain('This looks like a Chat Completions body: send it to /v1/chat/completions');
    expect(error.message).toContain('top-level `system`');
  });
});

describe('a key sent where the gateway does not read it', () => {
  it('should say the Authorization header lacks the Bearer scheme, without repeating the key', async () => {
    const client = new OpenAI({
      apiKey: 'unused',
      baseURL: running.openAIBaseURL,
      maxRetries: 0,
      defaultHeaders: { authorization: TEST_KEY },
    });
    const error = await failure(client.chat.completions.create({ model: 'mock', messages: hello }));
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'missing_api_key' });
    expect(error.message).toBe(
      "401 No API key was read: the Authorization header holds a value without the 'Bearer ' scheme (the key alone?). Send your gateway key as 'Authorization: Bearer <key>'.",
    );
    expect(JSON.stringify(error.error)).not.toContain(TEST_KEY);
  });

  it('should name a scheme other than Bearer', async () => {
    const client = new OpenAI({
      apiKey: 'unused',
      baseURL: running.openAIBaseURL,
      maxRetries: 0,
      defaultHeaders: { authorization: `Token ${TEST_KEY}` },
    });
    const error = await failure(client.responses.create({ model: 'mock', input: 'Hi' }));
    expect(error.message).toContain("the Authorization header uses the 'Token' scheme, and this gateway reads only 'Bearer'");
    expect(error.message).not.toContain(TEST_KEY);
  });

  it('should say a key in x-api-key is read only by the Messages endpoints', async () => {
    const client = new OpenAI({
      apiKey: 'unused',
      baseURL: running.openAIBaseURL,
      maxRetries: 0,
      defaultHeaders: { authorization: null, 'x-api-key': TEST_KEY },
    });
    const error = await failure(client.chat.completions.create({ model: 'mock', messages: hello }));
    expect(error).toMatchObject({ status: 401, code: 'missing_api_key' });
    expect(error.message).toContain("a key was sent in the 'x-api-key' header, which Anthropic clients use");
    expect(error.message).toContain("Send it as 'Authorization: Bearer <key>'");
    expect(error.message).not.toContain(TEST_KEY);
  });

  it('should say so on /v1/messages too, where x-api-key would also do', async () => {
    const client = new Anthropic({
      apiKey: 'unused',
      baseURL: running.root,
      maxRetries: 0,
      defaultHeaders: { 'x-api-key': null, authorization: TEST_KEY },
    });
    const error = await failure(client.messages.create({ model: 'mock', max_tokens: 50, messages: hello }));
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(error.message).toContain(
      "No API key was read: the Authorization header holds a value without the 'Bearer ' scheme (the key alone?). Send your gateway key as 'Authorization: Bearer <key>' or in an 'x-api-key' header.",
    );
  });
});

describe('a model whose provider key is not set', () => {
  it('should name the environment variable that would serve it', async () => {
    const error = await failure(openai().chat.completions.create({ model: 'gpt-5.4-mini', messages: hello }));
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    expect(error.message).toBe(
      "404 The model 'gpt-5.4-mini' is known to this gateway but not available. It is served when OPENAI_API_KEY is set; this server started without it. GET /v1/models lists the models you can use.",
    );
  });

  it('should say so in the Messages protocol and for GET /v1/models/{id}', async () => {
    const error = await failure(anthropic().messages.create({ model: 'claude-haiku-4-5', max_tokens: 50, messages: hello }));
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect(error.message).toContain('It is served when ANTHROPIC_API_KEY is set; this server started without it.');
    const retrieved = await failure(openai().models.retrieve('gemini-2.5-pro'));
    expect(retrieved.message).toContain('It is served when GEMINI_API_KEY is set');
  });

  it('should still suggest the closest id for a model it does not know', async () => {
    const error = await failure(openai().chat.completions.create({ model: 'mokc', messages: hello }));
    expect(error.message).toContain("does not exist on this gateway. Did you mean 'mock'?");
  });
});
