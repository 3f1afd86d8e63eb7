import { describe, expect, it } from 'vitest';
import { decodeResponsesRequest } from '../../../src/protocols/responses/request.js';
import { gatewayErrorOf } from '../../helpers/gateway-error-of.js';
import { jsonFixture } from '../../helpers/fixtures.js';

const fixture = (name: string) => jsonFixture('responses', name);

const decodeError = (body: unknown) => gatewayErrorOf(() => decodeResponsesRequest(body));

describe('decodeResponsesRequest', () => {
  describe('real client bodies', () => {
    it('should decode the openai SDK quick-start body (string input, instructions)', () => {
      expect(decodeResponsesRequest(fixture('openai-sdk-request'))).toEqual({
        model: 'gpt-4.1',
        system: [{ type: 'text', text: 'Be brief.' }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Tell me a three sentence bedtime story about a unicorn.' }] }],
        stream: false,
      });
    });

    it('should decode a Codex CLI body (developer prompt, namespaces, custom tools, reasoning replay)', () => {
      const request = decodeResponsesRequest(fixture('codex-request'));
      expect(request.system).toEqual([
        { type: 'text', text: 'You are Codex, based on GPT-5. You are running as a coding agent in the Codex CLI.' },
        {
          type: 'text',
          text: '<permissions instructions>Filesystem sandboxing: workspace-write.</permissions instructions>',
          extensions: { responses: { role: 'developer' } },
        },
      ]);
      expect(request.messages.map((message) => message.role)).toEqual([
        'user',
        'user',
        'assistant',
        'tool',
        'assistant',
        'tool',
        'assistant',
        'user',
      ]);
      expect(request.messages[2]).toEqual({
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            text: "**Listing files**\n\nI'll run ls first.",
            extensions: { responses: { id: 'rs_0a1b2c', encrypted_content: 'gAAAAABpQ1x2-opaque-openai-blob' } },
          },
          {
            type: 'tool-call',
            id: 'call_Kq1',
            name: 'exec_command',
            arguments: '{"cmd":"ls"}',
            namespace: 'shell',
            extensions: { responses: { id: 'fc_0a1b2d' } },
          },
        ],
      });
      expect(request.messages[3]).toEqual({
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'call_Kq1', content: [{ type: 'text', text: 'README.md\nsrc\n' }] }],
      });
      expect(request.messages[4]?.content[0]).toEqual({
        type: 'tool-call',
        id: 'call_Kq2',
        name: 'apply_patch',
        arguments: '*** Begin Patch\n*** Update File: README.md\n-teh\n+the\n*** End Patch',
        extensions: { responses: { type: 'custom_tool_call', id: 'ctc_0a1b2e', status: 'completed' } },
      });
      expect(request.messages[5]?.content[0]).toMatchObject({
        type: 'tool-result',
        toolCallId: 'call_Kq2',
        extensions: { responses: { type: 'custom_tool_call_output' } },
      });
      expect(request.messages[6]).toEqual({
        role: 'assistant',
        content: [
          {
            type: 'text',
            text: 'Fixed the typo.',
            extensions: { responses: { id: 'msg_0a1b2f', phase: 'final_answer', annotations: [] } },
          },
        ],
      });
      expect(request.tools).toEqual([
        {
          type: 'function',
          name: 'exec_command',
          description: 'Runs a command in a PTY.',
          parameters: {
            type: 'object',
            properties: { cmd: { type: 'string' } },
            required: ['cmd'],
            additionalProperties: false,
          },
          strict: false,
          namespace: 'shell',
          extensions: { responses: { namespace_tool: { description: "Run commands in the user's workspace." } } },
        },
        expect.objectContaining({ type: 'function', name: 'update_plan', strict: false }),
        expect.objectContaining({ type: 'provider-defined', protocol: 'responses', kind: 'custom', name: 'apply_patch' }),
        {
          type: 'provider-defined',
          protocol: 'responses',
          kind: 'web_search',
          definition: { type: 'web_search', external_web_access: false },
        },
      ]);
      expect(request.toolChoice).toEqual({ type: 'auto' });
      expect(request.parallelToolCalls).toBe(false);
      expect(request.reasoning).toEqual({ effort: 'medium', summary: 'auto' });
      expect(request.stream).toBe(true);
      expect(request.extensions).toEqual({
        responses: {
          store: false,
          include: ['reasoning.encrypted_content'],
          prompt_cache_key: '0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
          client_metadata: { 'x-codex-installation-id': 'inst-123' },
          text: { verbosity: 'low' },
        },
      });
    });

    it('should decode an AI SDK body (system item, image and file parts, parallel calls, json schema)', () => {
      const request = decodeResponsesRequest(fixture('ai-sdk-request'));
      expect(request.system).toEqual([{ type: 'text', text: 'You answer in JSON.', extensions: { responses: { role: 'system' } } }]);
      expect(request.messages[0]).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture, and how is the weather there?' },
          { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0xLjQ=' }, filename: 'notes.pdf' },
        ],
      });
      const assistant = request.messages[1];
      expect(assistant?.role).toBe('assistant');
      expect(assistant?.content.map((part) => part.type)).toEqual(['reasoning', 'text', 'tool-call', 'tool-call']);
      expect(assistant?.content[0]).toMatchObject({
        type: 'reasoning',
        text: 'Looking at the image.\n\nChecking the weather.',
        extensions: { responses: { id: 'rs_68c1', encrypted_content: 'gAAAAABoc-openai-encrypted' } },
      });
      expect(request.messages[2]).toEqual({
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call_w1', content: [{ type: 'text', text: 'sunny' }] },
          { type: 'tool-result', toolCallId: 'call_w2', content: [{ type: 'text', text: 'rain' }] },
        ],
      });
      expect(request.sampling).toEqual({ temperature: 0.3, topP: 0.9 });
      expect(request.maxOutputTokens).toBe(1024);
      expect(request.responseFormat).toEqual({
        type: 'json-schema',
        name: 'response',
        strict: true,
        schema: {
          type: 'object',
          properties: { answer: { type: 'string' } },
          required: ['answer'],
          additionalProperties: false,
        },
      });
      expect(request.toolChoice).toEqual({ type: 'tool', name: 'get_weather' });
      expect(request.reasoning).toEqual({ effort: 'low', summary: 'auto' });
      expect(request.metadata).toEqual({ userId: 'user-42', tags: { session: 's-1' } });
      expect(request.extensions).toEqual({ responses: { store: false, include: ['reasoning.encrypted_content'] } });
    });
  });

  describe('request settings', () => {
    it('should map reasoning effort none to disabled reasoning', () => {
      const request = decodeResponsesRequest({ model: 'm', input: 'x', reasoning: { effort: 'none' } });
      expect(request.reasoning).toEqual({ mode: 'disabled', effort: 'none' });
    });

    it('should read the deprecated generate_summary as summary and keep other reasoning keys in extensions', () => {
      const request = decodeResponsesRequest({ model: 'm', reasoning: { generate_summary: 'concise', context: 'all_turns' } });
      expect(request.reasoning).toEqual({ summary: 'concise' });
      expect(request.extensions?.responses?.reasoning).toEqual({ context: 'all_turns' });
    });

    it('should map text.format json_object and text to the canonical response format', () => {
      expect(decodeResponsesRequest({ model: 'm', text: { format: { type: 'json_object' } } }).responseFormat).toEqual({ type: 'json' });
      expect(decodeResponsesRequest({ model: 'm', text: { format: { type: 'text' } } }).responseFormat).toEqual({ type: 'text' });
    });

    it('should take user as the end-user id when safety_identifier is absent and keep it as a hint', () => {
      const request = decodeResponsesRequest({ model: 'm', user: 'u-1' });
      expect(request.metadata).toEqual({ userId: 'u-1' });
      expect(request.extensions?.responses).toEqual({ user: 'u-1' });
    });

    it('should keep answer-changing fields in extensions under their wire names', () => {
      const request = decodeResponsesRequest({
        model: 'm',
        previous_response_id: 'resp_1',
        conversation: { id: 'conv_1' },
        prompt: { id: 'pmpt_1', variables: { city: 'Paris' } },
        background: true,
        top_logprobs: 3,
        truncation: 'auto',
        context_management: [{ type: 'compaction', compact_threshold: 1000 }],
        max_tool_calls: 4,
      });
      expect(request.extensions?.responses).toEqual({
        previous_response_id: 'resp_1',
        conversation: { id: 'conv_1' },
        prompt: { id: 'pmpt_1', variables: { city: 'Paris' } },
        background: true,
        top_logprobs: 3,
        truncation: 'auto',
        context_management: [{ type: 'compaction', compact_threshold: 1000 }],
        max_tool_calls: 4,
      });
    });

    it('should treat nulls and the documented defaults as not set', () => {
      const request = decodeResponsesRequest({
        model: 'm',
        previous_response_id: null,
        instructions: null,
        background: false,
        truncation: 'disabled',
        temperature: null,
        metadata: null,
      });
      expect(request).toEqual({ model: 'm', messages: [], stream: false });
    });

    it('should keep unknown top-level fields in extensions', () => {
      const request = decodeResponsesRequest({ model: 'm', input: 'x', future_knob: { level: 2 } });
      expect(request.extensions?.responses).toEqual({ future_knob: { level: 2 } });
    });
  });

  describe('invalid bodies', () => {
    it.each([
      { name: 'a non-object body', body: 'hello', param: undefined },
      { name: 'a missing model', body: { input: 'x' }, param: 'model' },
      { name: 'a non-string input', body: { model: 'm', input: 42 }, param: 'input' },
      { name: 'a bad temperature', body: { model: 'm', temperature: 'hot' }, param: 'temperature' },
      { name: 'a bad content part list', body: { model: 'm', input: [{ role: 'user', content: 7 }] }, param: 'input[0].content' },
      { name: 'a bad role', body: { model: 'm', input: [{ role: 'robot', content: 'x' }] }, param: 'input[0].role' },
      {
        name: 'a function call without call_id',
        body: { model: 'm', input: [{ type: 'function_call', name: 'f', arguments: '{}' }] },
        param: 'input[0].call_id',
      },
      {
        name: 'a text part without text',
        body: { model: 'm', input: [{ role: 'user', content: [{ type: 'input_text' }] }] },
        param: 'input[0].content[0].text',
      },
      { name: 'an item without type or role', body: { model: 'm', input: [{ content: 'x' }] }, param: 'input[0]' },
      {
        name: 'an image without a source',
        body: { model: 'm', input: [{ role: 'user', content: [{ type: 'input_image', detail: 'auto' }] }] },
        param: 'input[0].content[0]',
      },
      { name: 'a function tool without name', body: { model: 'm', tools: [{ type: 'function', parameters: {} }] }, param: 'tools[0].name' },
      {
        name: 'a namespace member without name',
        body: { model: 'm', tools: [{ type: 'namespace', name: 'ns', tools: [{ type: 'function' }] }] },
        param: 'tools[0].tools[0].name',
      },
      {
        name: 'a json_schema format without name',
        body: { model: 'm', text: { format: { type: 'json_schema', schema: {} } } },
        param: 'text.format.name',
      },
      { name: 'an unknown reasoning effort', body: { model: 'm', reasoning: { effort: 'extreme' } }, param: 'reasoning.effort' },
      { name: 'a forced function without name', body: { model: 'm', tool_choice: { type: 'function' } }, param: 'tool_choice.name' },
      {
        name: 'an image in a tool output',
        body: { model: 'm', input: [{ type: 'function_call_output', call_id: 'c', output: [{ type: 'output_text', text: 'x' }] }] },
        param: 'input[0].output[0].type',
      },
      {
        name: 'an image in a developer message',
        body: { model: 'm', input: [{ role: 'developer', content: [{ type: 'input_image', image_url: 'https://x' }] }] },
        param: 'input[0].content[0].type',
      },
    ])('should reject $name with param $param', ({ body, param }) => {
      const error = decodeError(body);
      expect(error.kind).toBe('invalid_request');
      expect(error.code).toBe('INVALID_REQUEST_BODY');
      expect(error.status).toBe(400);
      expect(error.param).toBe(param);
      expect(error.message).toMatch(/^Invalid request: /);
    });

    it('should say what was expected', () => {
      const error = decodeError({ model: 'm', input: [{ role: 'user', content: 7 }] });
      expect(error.message).toBe('Invalid request: input[0].content: expected a string or an array of content parts.');
    });

    it('should name a missing required field', () => {
      expect(decodeError({ model: 'm', input: [{ type: 'function_call', call_id: 'c', arguments: '{}' }] }).message).toBe(
        'Invalid request: input[0].name: is required (expected a string).',
      );
    });
  });
});
