import { describe, expect, it } from 'vitest';
import type { CanonicalRequest, CanonicalTool, ProtocolName } from '../../src/canonical/index.js';
import { allCapabilities } from '../../src/providers/all-capabilities.js';
import type { ModelCapabilities } from '../../src/providers/types.js';
import { adaptToModel } from '../../src/routing/adapt-to-model.js';
import type { ResolvedModel } from '../../src/routing/resolve-model.js';
import { DEFAULT_TIMEOUTS } from '../../src/routing/timeouts.js';
import { gatewayErrorOf } from '../helpers/gateway-error-of.js';

function model(
  fields: { capabilities?: Partial<ModelCapabilities>; adapt?: boolean; omitHostedTools?: boolean; protocol?: ProtocolName } = {},
): ResolvedModel {
  return {
    id: 'small-model',
    upstreamModel: 'up',
    providerId: 'p',
    adapter: {
      id: 'p',
      protocol: fields.protocol ?? 'messages',
      generate: () => Promise.reject(new Error('no')),
      stream: () => ({ async *[Symbol.asyncIterator]() {} }),
    },
    capabilities: { ...allCapabilities, providerTools: ['messages'], ...fields.capabilities },
    created: 0,
    ownedBy: 'p',
    omitHostedTools: fields.omitHostedTools ?? false,
    adapt: fields.adapt ?? true,
    timeouts: DEFAULT_TIMEOUTS,
    deployments: [],
    strategy: 'weighted',
    fallbacks: [],
  };
}

const exec: CanonicalTool = { type: 'function', name: 'exec' };
const webSearch: CanonicalTool = {
  type: 'provider-defined',
  protocol: 'responses',
  kind: 'web_search',
  definition: { type: 'web_search' },
};
const customPatch: CanonicalTool = {
  type: 'provider-defined',
  protocol: 'responses',
  kind: 'custom',
  name: 'apply_patch',
  definition: { type: 'custom' },
};
const base: CanonicalRequest = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

describe('adaptToModel', () => {
  it('should return the request itself and no names when there is nothing to leave out', () => {
    const request = { ...base, tools: [exec], reasoning: { effort: 'high' as const } };
    const adapted = adaptToModel(request, model(), 'responses');
    expect(adapted.request).toBe(request);
    expect(adapted.adaptations).toEqual([]);
  });

  it('should keep a client-run tool the model cannot take (custom apply_patch), for the capability check to refuse', () => {
    const request = { ...base, tools: [exec, customPatch, webSearch] };
    const adapted = adaptToModel(request, model(), 'responses');
    expect(adapted.request.tools).toEqual([exec, customPatch]);
    expect(adapted.adaptations).toEqual(['tools.web_search']);
  });

  it("should still omit every tool the model cannot run with hostedTools: 'omit', even with adapt: false, naming them", () => {
    const adapted = adaptToModel(
      { ...base, tools: [exec, customPatch, webSearch] },
      model({ adapt: false, omitHostedTools: true }),
      'responses',
    );
    expect(adapted.request.tools).toEqual([exec]);
    expect(adapted.adaptations).toEqual(['tools.custom', 'tools.web_search']);
  });

  it('should change nothing with adapt: false', () => {
    const request = { ...base, tools: [webSearch], reasoning: { effort: 'high' as const } };
    const adapted = adaptToModel(request, model({ adapt: false, capabilities: { reasoning: false } }), 'responses');
    expect(adapted.request).toBe(request);
  });

  it('should drop a disabled reasoning config silently: the model does not reason, as asked', () => {
    const adapted = adaptToModel({ ...base, reasoning: { mode: 'disabled' } }, model({ capabilities: { reasoning: false } }), 'messages');
    expect(adapted.request.reasoning).toBeUndefined();
    expect(adapted.adaptations).toEqual([]);
  });

  it('should refuse a tool choice naming a dropped tool', () => {
    const anthropicSearch: CanonicalTool = {
      type: 'provider-defined',
      protocol: 'messages',
      kind: 'web_search_20250305',
      name: 'web_search',
      definition: {},
    };
    const error = gatewayErrorOf(() =>
      adaptToModel(
        { ...base, tools: [exec, anthropicSearch], toolChoice: { type: 'tool', name: 'web_search' } },
        model({ protocol: 'chat', capabilities: { providerTools: ['chat'] } }),
        'messages',
      ),
    );
    expect(error.code).toBe('UNSUPPORTED_FEATURE');
    expect(error.message).toContain("'web_search_20250305' tool");
  });

  it('should not name Chat cache and tier hints the Responses encoder carries over', () => {
    const request = { ...base, extensions: { chat: { prompt_cache_key: 'k', service_tier: 'flex' } } };
    expect(adaptToModel(request, model({ protocol: 'responses' }), 'chat').adaptations).toEqual([]);
    expect(adaptToModel(request, model({ protocol: 'messages' }), 'chat').adaptations).toEqual(['cache', 'service_tier']);
  });
});
