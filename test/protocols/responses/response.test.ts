import { describe, expect, it } from 'vitest';
import type { CanonicalRequest, CanonicalResponse } from '../../../src/canonical/index.js';
import type { EncodeContext } from '../../../src/protocols/codec.js';
import { decodeResponsesEncryptedContent } from '../../../src/protocols/responses/encrypted-content.js';
import { decodeResponsesRequest } from '../../../src/protocols/responses/request.js';
import { encodeResponsesResponse } from '../../../src/protocols/responses/response.js';

const contextFor = (request: Partial<CanonicalRequest> = {}): EncodeContext => ({
  requestId: 'req_abc',
  created: 1741476542,
  request: { model: 'gpt-test', messages: [], stream: false, ...request },
});

const answer = (overrides: Partial<CanonicalResponse> = {}): CanonicalResponse => ({
  id: 'upstream-1',
  model: 'upstream-model',
  content: [{ type: 'text', text: 'Hi!' }],
  finishReason: { unified: 'stop', raw: 'end_turn' },
  usage: { inputTokens: 36, outputTokens: 87, cachedInputTokens: 0, reasoningTokens: 0, totalTokens: 123 },
  ...overrides,
});

const item = (body: Record<string, unknown>, index: number) => (body.output as Record<string, unknown>[])[index];

describe('encodeResponsesResponse', () => {
  it('should encode a text answer as the full Response object', () => {
    expect(encodeResponsesResponse(answer(), contextFor())).toEqual({
      id: 'resp_abc',
      object: 'response',
      created_at: 1741476542,
      status: 'completed',
      completed_at: 1741476542,
      background: false,
      error: null,
      incomplete_details: null,
      instructions: null,
      max_output_tokens: null,
      model: 'gpt-test',
      output: [
        {
          id: 'msg_abc_0',
          type: 'message',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Hi!', annotations: [], logprobs: [] }],
        },
      ],
      output_text: 'Hi!',
      parallel_tool_calls: true,
      previous_response_id: null,
      reasoning: { effort: null, summary: null },
      store: false,
      temperature: 1,
      text: { format: { type: 'text' } },
      tool_choice: 'auto',
      tools: [],
      top_p: 1,
      truncation: 'disabled',
      usage: {
        input_tokens: 36,
        input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
        output_tokens: 87,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 123,
      },
      user: null,
      metadata: {},
      access_programs: null,
    });
  });

  it('should keep a provider id that already is a Responses id', () => {
    expect(encodeResponsesResponse(answer({ id: 'resp_upstream' }), contextFor()).id).toBe('resp_upstream');
  });

  it('should encode parallel tool calls as function_call items after the text', () => {
    const body = encodeResponsesResponse(
      answer({
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'tool-call', id: 'toolu_2', name: 'get_time', arguments: '' },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      }),
      contextFor(),
    );
    expect(body.status).toBe('completed');
    expect(body.output).toEqual([
      expect.objectContaining({ id: 'msg_abc_0', type: 'message' }),
      {
        id: 'fc_abc_1',
        type: 'function_call',
        status: 'completed',
        call_id: 'toolu_1',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      },
      { id: 'fc_abc_2', type: 'function_call', status: 'completed', call_id: 'toolu_2', name: 'get_time', arguments: '{}' },
    ]);
  });

  it('should encode a namespaced call and a call to a custom tool', () => {
    const request = decodeResponsesRequest({
      model: 'm',
      tools: [{ type: 'custom', name: 'apply_patch' }],
    });
    const body = encodeResponsesResponse(
      answer({
        content: [
          { type: 'tool-call', id: 'call_1', name: 'exec', namespace: 'shell', arguments: '{}' },
          { type: 'tool-call', id: 'call_2', name: 'apply_patch', arguments: '*** Begin Patch' },
        ],
      }),
      contextFor(request),
    );
    expect(body.output).toEqual([
      { id: 'fc_abc_0', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'exec', namespace: 'shell', arguments: '{}' },
      { id: 'ctc_abc_1', type: 'custom_tool_call', status: 'completed', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch' },
    ]);
  });

  it('should encode reasoning first and mint encrypted_content from a thinking signature', () => {
    const body = encodeResponsesResponse(
      answer({
        content: [
          { type: 'reasoning', text: 'Comparing options…', signature: 'EqQBsig==' },
          { type: 'reasoning', text: '', redactedData: 'cmVkYWN0ZWQ=' },
          { type: 'text', text: 'Pick B.' },
        ],
        usage: { inputTokens: 10, outputTokens: 30, reasoningTokens: 20 },
      }),
      contextFor(),
    );
    const first = item(body, 0);
    expect(first).toMatchObject({
      id: 'rs_abc_0',
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Comparing options…' }],
      status: 'completed',
    });
    expect(decodeResponsesEncryptedContent(String(first?.encrypted_content))).toEqual({ signature: 'EqQBsig==' });
    const second = item(body, 1);
    expect(second?.summary).toEqual([]);
    expect(decodeResponsesEncryptedContent(String(second?.encrypted_content))).toEqual({ redactedData: 'cmVkYWN0ZWQ=' });
    expect(body.output_text).toBe('Pick B.');
    expect(body.usage).toMatchObject({ output_tokens: 30, output_tokens_details: { reasoning_tokens: 20 }, total_tokens: 40 });
  });

  it('should give back replayed reasoning as it came (reasoning_text form, OpenAI encrypted_content)', () => {
    const body = encodeResponsesResponse(
      answer({
        content: [
          {
            type: 'reasoning',
            text: 'raw',
            extensions: { responses: { id: 'rs_up', reasoning_form: 'reasoning_text', encrypted_content: 'gAAAA' } },
          },
        ],
      }),
      contextFor(),
    );
    expect(item(body, 0)).toEqual({
      id: 'rs_up',
      type: 'reasoning',
      summary: [],
      content: [{ type: 'reasoning_text', text: 'raw' }],
      encrypted_content: 'gAAAA',
      status: 'completed',
    });
  });

  it('should put a refusal inside the message and keep annotations, phase and item ids it was given', () => {
    const extensions = { responses: { id: 'msg_up', phase: 'final_answer', annotations: [{ type: 'url_citation', url: 'https://x' }] } };
    const body = encodeResponsesResponse(
      answer({
        content: [
          { type: 'text', text: 'See x.', extensions },
          { type: 'refusal', text: 'I cannot help with the rest.', extensions: { responses: { id: 'msg_up' } } },
        ],
      }),
      contextFor(),
    );
    expect(body.output).toEqual([
      {
        id: 'msg_up',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        phase: 'final_answer',
        content: [
          { type: 'output_text', text: 'See x.', annotations: [{ type: 'url_citation', url: 'https://x' }], logprobs: [] },
          { type: 'refusal', refusal: 'I cannot help with the rest.' },
        ],
      },
    ]);
  });

  it('should pass hosted-tool items through verbatim', () => {
    const search = { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'q' } };
    const body = encodeResponsesResponse(
      answer({ content: [{ type: 'provider-defined', protocol: 'responses', kind: 'web_search_call', data: search }] }),
      contextFor(),
    );
    expect(body.output).toEqual([search]);
  });

  describe('finish reasons', () => {
    it('should report a cut-off answer as incomplete (max_output_tokens) with an incomplete last item', () => {
      const body = encodeResponsesResponse(answer({ finishReason: { unified: 'length', raw: 'max_tokens' } }), contextFor());
      expect(body.status).toBe('incomplete');
      expect(body.incomplete_details).toEqual({ reason: 'max_output_tokens' });
      expect(body.completed_at).toBeNull();
      expect(item(body, 0)?.status).toBe('incomplete');
    });

    it('should report a filtered answer as incomplete (content_filter)', () => {
      const body = encodeResponsesResponse(answer({ finishReason: { unified: 'content-filter', raw: 'refusal' } }), contextFor());
      expect(body).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } });
    });

    it('should report an error as failed with an error object', () => {
      const body = encodeResponsesResponse(answer({ finishReason: { unified: 'error' } }), contextFor());
      expect(body).toMatchObject({ status: 'failed', error: { code: 'server_error' }, incomplete_details: null });
    });
  });

  describe('echoed request settings', () => {
    it('should echo instructions, tools, tool_choice and sampling as the caller sent them', () => {
      const wireTools = [{ type: 'function', name: 'f', parameters: { type: 'object' }, strict: false }, { type: 'web_search' }];
      const request = decodeResponsesRequest({
        model: 'alias-model',
        instructions: 'Be brief.',
        input: [
          { role: 'developer', content: 'Dev rules.' },
          { role: 'user', content: 'Hi' },
        ],
        tools: wireTools,
        tool_choice: { type: 'web_search_preview' },
        temperature: 0.2,
        top_p: 0.5,
        parallel_tool_calls: false,
        max_output_tokens: 256,
        reasoning: { effort: 'high', summary: 'detailed' },
        text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true }, verbosity: 'low' },
        metadata: { k: 'v' },
        store: true,
        user: 'u-1',
        previous_response_id: 'resp_prev',
        prompt_cache_key: 'pck',
      });
      const body = encodeResponsesResponse(answer(), contextFor(request));
      expect(body).toMatchObject({
        model: 'alias-model',
        instructions: 'Be brief.',
        tools: wireTools,
        tool_choice: { type: 'web_search_preview' },
        temperature: 0.2,
        top_p: 0.5,
        parallel_tool_calls: false,
        max_output_tokens: 256,
        reasoning: { effort: 'high', summary: 'detailed' },
        text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true }, verbosity: 'low' },
        metadata: { k: 'v' },
        store: true,
        user: 'u-1',
        previous_response_id: 'resp_prev',
        prompt_cache_key: 'pck',
      });
    });

    it('should answer null instructions when only input messages carried the system prompt', () => {
      const request = decodeResponsesRequest({ model: 'm', input: [{ role: 'system', content: 'Sys' }] });
      expect(encodeResponsesResponse(answer(), contextFor(request)).instructions).toBeNull();
    });
  });
});
