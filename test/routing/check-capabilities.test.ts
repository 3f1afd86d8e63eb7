import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../src/canonical/index.js';
import { GatewayError } from '../../src/canonical/index.js';
import { allCapabilities } from '../../src/providers/all-capabilities.js';
import type { ModelCapabilities } from '../../src/providers/types.js';
import { checkCapabilities } from '../../src/routing/check-capabilities.js';

const everything: ModelCapabilities = allCapabilities;

const base: CanonicalRequest = {
  model: 'm',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  stream: false,
};

function failure(request: CanonicalRequest, capabilities: Partial<ModelCapabilities> = {}, upstream?: 'chat') {
  try {
    checkCapabilities({
      request,
      inbound: 'chat',
      upstream,
      hintFields: new Set(['store', 'user']),
      fields: { protocol: 'chat', known: new Set(['store', 'user', 'n', 'temperature', 'logprobs']), counterparts: new Map() },
      modelId: 'small-model',
      capabilities: { ...everything, ...capabilities },
    });
    return undefined;
  } catch (error) {
    if (!GatewayError.isInstance(error)) throw error;
    return error;
  }
}

describe('checkCapabilities', () => {
  it('should pass a plain request', () => {
    expect(failure(base)).toBeUndefined();
  });

  describe('inbound fields without a canonical home', () => {
    it('should refuse a field that changes the answer when the provider speaks another protocol', () => {
      const error = failure({ ...base, extensions: { chat: { n: 3 } } });
      expect(error?.code).toBe('UNSUPPORTED_FEATURE');
      expect(error?.status).toBe(400);
      expect(error?.message).toContain("'n'");
      expect(error?.message).toContain('small-model');
    });

    it('should say a field the protocol does not have is no field of it, suggesting the closest one', () => {
      const error = failure({ ...base, extensions: { chat: { temprature: 0.2 } } });
      expect(error).toMatchObject({ status: 400, code: 'UNKNOWN_FIELD', param: 'temprature' });
      expect(error?.message).toBe(
        "'temprature' is not a field of the Chat Completions API. Did you mean 'temperature'? The model 'small-model' does not take it as an extra field.",
      );
    });

    it('should carry a field the protocol does not have to a provider of the same protocol (a vendor extra)', () => {
      expect(failure({ ...base, extensions: { chat: { chat_template_kwargs: {} } } }, {}, 'chat')).toBeUndefined();
    });

    it('should leave hint fields behind', () => {
      expect(failure({ ...base, extensions: { chat: { store: true, user: 'u' } } })).toBeUndefined();
    });

    it('should carry every field to a provider of the same protocol', () => {
      expect(failure({ ...base, extensions: { chat: { n: 3 } } }, {}, 'chat')).toBeUndefined();
    });
  });

  describe('content', () => {
    it('should refuse images for a text-only model', () => {
      const request: CanonicalRequest = {
        ...base,
        messages: [{ role: 'user', content: [{ type: 'image', source: { kind: 'url', url: 'https://x/y.png' } }] }],
      };
      expect(failure(request, { images: false })?.message).toContain('image input');
    });

    it('should find images inside tool results', () => {
      const request: CanonicalRequest = {
        ...base,
        messages: [
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 'c1',
                content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AA==' } }],
              },
            ],
          },
        ],
      };
      expect(failure(request, { images: false })?.code).toBe('UNSUPPORTED_FEATURE');
    });

    it('should refuse content only another protocol understands', () => {
      const request: CanonicalRequest = {
        ...base,
        messages: [{ role: 'assistant', content: [{ type: 'provider-defined', protocol: 'messages', kind: 'server_tool_use', data: {} }] }],
      };
      expect(failure(request)?.message).toContain('server_tool_use');
    });
  });

  describe('request features', () => {
    it('should refuse tools, streaming, reasoning and JSON output where unsupported', () => {
      const tools: CanonicalRequest = { ...base, tools: [{ type: 'function', name: 'f' }] };
      expect(failure(tools, { tools: false })?.param).toBe('tools');
      expect(failure({ ...base, stream: true }, { streaming: false })?.param).toBe('stream');
      expect(failure({ ...base, reasoning: { effort: 'high' } }, { reasoning: false })?.param).toBe('reasoning');
      expect(failure({ ...base, responseFormat: { type: 'json' } }, { structuredOutput: false })?.param).toBe('response_format');
    });

    it('should allow reasoning that is switched off', () => {
      expect(failure({ ...base, reasoning: { mode: 'disabled' } }, { reasoning: false })).toBeUndefined();
    });

    it('should refuse a hosted tool of another protocol and accept one the model takes', () => {
      const request: CanonicalRequest = {
        ...base,
        tools: [{ type: 'provider-defined', protocol: 'responses', kind: 'web_search', definition: { type: 'web_search' } }],
      };
      expect(failure(request)?.message).toContain("'web_search' tool");
      expect(failure(request, { providerTools: ['responses'] })).toBeUndefined();
    });
  });
});
