import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../src/canonical/index.js';
import { applyRequestPolicy } from '../../src/policy/apply-request-policy.js';
import { compileRequestPolicy, mergeRequestPolicies } from '../../src/policy/compiled-request-policy.js';
import { defaultRequestPolicy } from '../../src/policy/default-request-policy.js';
import type { RequestPolicy } from '../../src/policy/request-policy.js';

const policyOf = (...layers: RequestPolicy[]) => compileRequestPolicy(mergeRequestPolicies([defaultRequestPolicy, ...layers]));
const plain: CanonicalRequest = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false };
const webSearch = {
  type: 'provider-defined' as const,
  protocol: 'responses' as const,
  kind: 'web_search',
  definition: { type: 'web_search' },
};
const shell = { type: 'function' as const, name: 'shell', parameters: { type: 'object' } };

describe('applyRequestPolicy', () => {
  it('should return the request itself when it carries nothing the policy polices', () => {
    const request: CanonicalRequest = {
      ...plain,
      tools: [shell],
      maxOutputTokens: 100,
      extensions: { chat: { logit_bias: { 1: 2 }, n: 1 } },
    };
    expect(applyRequestPolicy(policyOf(), request, 'chat')).toBe(request);
    expect(applyRequestPolicy(policyOf(), plain, 'messages')).toBe(plain);
  });

  describe('pass-through fields', () => {
    it("should strip the fields the policy strips, leaving the caller's request unchanged", () => {
      const request: CanonicalRequest = { ...plain, extensions: { chat: { service_tier: 'priority', store: true, logit_bias: { 1: 2 } } } };
      const policed = applyRequestPolicy(policyOf(), request, 'chat');
      expect(policed.extensions).toEqual({ chat: { logit_bias: { 1: 2 } } });
      expect(request.extensions?.chat).toHaveProperty('service_tier');
    });

    it('should drop the bag when nothing is left in it', () => {
      const policed = applyRequestPolicy(policyOf(), { ...plain, extensions: { responses: { store: true } } }, 'responses');
      expect(policed).not.toHaveProperty('extensions');
    });

    it("should police only the caller's protocol bag", () => {
      const request: CanonicalRequest = { ...plain, extensions: { chat: { service_tier: 'priority' } } };
      expect(applyRequestPolicy(policyOf(), request, 'messages')).toBe(request);
    });

    it('should refuse a refused field with REQUEST_POLICY_REFUSED naming it', () => {
      const request: CanonicalRequest = { ...plain, extensions: { messages: { mcp_servers: [] } } };
      expect(() => applyRequestPolicy(policyOf(), request, 'messages')).toThrow(
        expect.objectContaining({ code: 'REQUEST_POLICY_REFUSED', param: 'mcp_servers', status: 400 }),
      );
    });

    it("should apply '*' and prefix entries to fields no exact entry names", () => {
      const request: CanonicalRequest = { ...plain, extensions: { chat: { prompt_cache_key: 'k', vendor_x: 1, logit_bias: {} } } };
      const policed = applyRequestPolicy(policyOf({ fields: { '*': 'strip', 'prompt_*': 'allow' } }), request, 'chat');
      expect(policed.extensions).toEqual({ chat: { prompt_cache_key: 'k', logit_bias: {} } });
    });
  });

  describe('n', () => {
    it('should refuse n over the cap with REQUEST_POLICY_OVER_CAP, and let it through within', () => {
      const request: CanonicalRequest = { ...plain, extensions: { chat: { n: 3 } } };
      expect(() => applyRequestPolicy(policyOf(), request, 'chat')).toThrow(
        expect.objectContaining({ code: 'REQUEST_POLICY_OVER_CAP', param: 'n' }),
      );
      expect(applyRequestPolicy(policyOf({ maxChoices: 3 }), request, 'chat')).toBe(request);
    });
  });

  describe('hosted tools', () => {
    it('should strip web_search and keep the functions', () => {
      const policed = applyRequestPolicy(policyOf(), { ...plain, tools: [shell, webSearch], toolChoice: { type: 'auto' } }, 'responses');
      expect(policed.tools).toEqual([shell]);
      expect(policed.toolChoice).toEqual({ type: 'auto' });
    });

    it('should drop the tool choice and parallel_tool_calls when no tool is left', () => {
      const policed = applyRequestPolicy(
        policyOf(),
        { ...plain, tools: [webSearch], toolChoice: { type: 'required' }, parallelToolCalls: true },
        'responses',
      );
      expect(policed).not.toHaveProperty('tools');
      expect(policed).not.toHaveProperty('toolChoice');
      expect(policed).not.toHaveProperty('parallelToolCalls');
    });

    it('should refuse a canonical tool choice naming a stripped server tool', () => {
      const server = {
        type: 'provider-defined' as const,
        protocol: 'messages' as const,
        kind: 'web_search_20250305',
        name: 'web_search',
        definition: {},
      };
      const request: CanonicalRequest = { ...plain, tools: [shell, server], toolChoice: { type: 'tool', name: 'web_search' } };
      expect(() => applyRequestPolicy(policyOf(), request, 'messages')).toThrow(expect.objectContaining({ param: 'tool_choice' }));
    });

    it('should refuse a refused hosted tool, and let an allowed one through', () => {
      const mcp = {
        type: 'provider-defined' as const,
        protocol: 'responses' as const,
        kind: 'mcp',
        definition: { server_url: 'https://x.example' },
      };
      expect(() => applyRequestPolicy(policyOf(), { ...plain, tools: [mcp] }, 'responses')).toThrow(
        expect.objectContaining({ param: 'tools' }),
      );
      const request = { ...plain, tools: [mcp, webSearch] };
      expect(applyRequestPolicy(policyOf({ tools: { mcp: 'allow', web_search: 'allow' } }), request, 'responses')).toBe(request);
    });
  });
});
