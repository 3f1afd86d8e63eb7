import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../src/canonical/index.js';
import { allCapabilities } from '../../src/providers/all-capabilities.js';
import type { ModelCapabilities } from '../../src/providers/types.js';
import { omitHostedTools } from '../../src/routing/omit-hosted-tools.js';

const capabilities: ModelCapabilities = { ...allCapabilities, providerTools: ['messages'] };
const webSearch = { type: 'provider-defined' as const, protocol: 'responses' as const, kind: 'web_search', definition: { type: 'web_search' } };
const request: CanonicalRequest = {
  model: 'm',
  stream: false,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
  tools: [{ type: 'function', name: 'exec' }, webSearch],
  toolChoice: { type: 'auto' },
};

describe('omitHostedTools', () => {
  it('should leave out hosted tools of protocols the model cannot run and keep functions', () => {
    expect(omitHostedTools(request, capabilities).tools).toEqual([{ type: 'function', name: 'exec' }]);
  });

  it('should keep hosted tools the model can run', () => {
    expect(omitHostedTools(request, { ...capabilities, providerTools: ['responses'] })).toBe(request);
  });

  it('should drop the tool choice when no tool is left', () => {
    const only = omitHostedTools({ ...request, tools: [webSearch] }, capabilities);
    expect(only.tools).toBeUndefined();
    expect(only.toolChoice).toBeUndefined();
  });
});
