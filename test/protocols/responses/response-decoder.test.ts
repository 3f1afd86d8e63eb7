import { describe, expect, it } from 'vitest';
import { decodeResponsesResponse } from '../../../src/protocols/responses/response-decoder.js';
import { encodeResponsesRequest } from '../../../src/protocols/responses/request-encoder.js';
import { jsonFixture } from '../../helpers/fixtures.js';

describe('decodeResponsesResponse', () => {
  it('should decode reasoning, text and a function call with ids, finish reason and usage', () => {
    expect(decodeResponsesResponse(jsonFixture('responses', 'upstream-response'))).toEqual({
      id: 'resp_67ccd2bed1ec8190',
      model: 'gpt-5-2025-08-07',
      content: [
        {
          type: 'reasoning',
          text: 'The user wants the weather; I should call the tool.',
          extensions: { responses: { id: 'rs_67ccd2bf', encrypted_content: 'gAAAAABoA1encryptedReasoningBlob==' } },
        },
        { type: 'text', text: 'Let me check the weather in Paris.', extensions: { responses: { id: 'msg_67ccd2c0' } } },
        {
          type: 'tool-call',
          id: 'call_Ab12Cd34',
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
          extensions: { responses: { id: 'fc_67ccd2c1' } },
        },
      ],
      finishReason: { unified: 'tool-calls', raw: 'completed' },
      usage: { inputTokens: 36, outputTokens: 87, cachedInputTokens: 12, reasoningTokens: 64, totalTokens: 123 },
    });
  });

  it('should keep what a later turn needs to replay the answer to OpenAI unchanged', () => {
    const answer = decodeResponsesResponse(jsonFixture('responses', 'upstream-response'));
    const next = encodeResponsesRequest(
      { model: 'gpt-5', stream: false, messages: [{ role: 'assistant', content: answer.content }] },
      { stream: false },
    );
    const output = jsonFixture('responses', 'upstream-response').output as Record<string, unknown>[];
    const { status: _s0, ...reasoning } = output[0]!;
    const { logprobs: _l, ...textPart } = (output[1]!.content as Record<string, unknown>[])[0]!;
    const { status: _s2, ...call } = output[2]!;
    expect(next.input).toEqual([reasoning, { ...output[1], content: [textPart] }, call]);
  });

  it('should report a cut-off answer as length', () => {
    const answer = decodeResponsesResponse(jsonFixture('responses', 'upstream-incomplete'));
    expect(answer.finishReason).toEqual({ unified: 'length', raw: 'max_output_tokens' });
    expect(answer.content).toEqual([
      { type: 'text', text: 'The history of Paris begins', extensions: { responses: { id: 'msg_2', status: 'incomplete' } } },
    ]);
  });

  it('should report a content filter stop as content-filter', () => {
    const body = { ...jsonFixture('responses', 'upstream-incomplete'), incomplete_details: { reason: 'content_filter' } };
    expect(decodeResponsesResponse(body).finishReason).toEqual({ unified: 'content-filter', raw: 'content_filter' });
  });

  it('should throw the failure of a failed response', () => {
    expect(() => decodeResponsesResponse(jsonFixture('responses', 'upstream-failed'))).toThrow(
      expect.objectContaining({
        code: 'SERVER_ERROR',
        kind: 'upstream',
        retryable: true,
        message: 'The server had an error while processing your request.',
      }),
    );
  });

  it('should keep refusals, reasoning text of open models and hosted-tool items', () => {
    const answer = decodeResponsesResponse({
      id: 'resp_x',
      status: 'completed',
      output: [
        { type: 'reasoning', id: 'rs_9', summary: [], content: [{ type: 'reasoning_text', text: 'raw thought' }] },
        { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'paris' } },
        { type: 'message', id: 'msg_9', role: 'assistant', content: [{ type: 'refusal', refusal: 'I cannot help.' }] },
      ],
    });
    expect(answer.content).toEqual([
      { type: 'reasoning', text: 'raw thought', extensions: { responses: { id: 'rs_9', reasoning_form: 'reasoning_text' } } },
      {
        type: 'provider-defined',
        protocol: 'responses',
        kind: 'web_search_call',
        data: { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'paris' } },
      },
      { type: 'refusal', text: 'I cannot help.', extensions: { responses: { id: 'msg_9' } } },
    ]);
    expect(answer.usage).toEqual({});
    expect(answer.finishReason.unified).toBe('stop');
  });

  it('should not crash on unexpected fields and odd items', () => {
    const answer = decodeResponsesResponse({
      id: 'resp_y',
      status: 'completed',
      surprise: true,
      output: [
        null,
        7,
        { type: 'message', content: 'not an array' },
        { type: 'message', content: [{ type: 'output_text', text: 'ok', extra: 1 }] },
      ],
      usage: { input_tokens: 'many' },
    });
    expect(answer.content).toEqual([{ type: 'text', text: 'ok', extensions: { responses: { extra: 1 } } }]);
  });

  it('should refuse a body that is not a Response object', () => {
    expect(() => decodeResponsesResponse('<html>')).toThrow(expect.objectContaining({ code: 'UPSTREAM_INVALID_RESPONSE' }));
  });
});
