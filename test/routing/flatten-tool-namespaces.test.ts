import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../src/canonical/index.js';
import { flattenToolNamespaces } from '../../src/routing/flatten-tool-namespaces.js';

const request: CanonicalRequest = {
  model: 'm',
  stream: false,
  tools: [
    { type: 'function', name: 'exec_command' },
    { type: 'function', name: 'spawn', namespace: 'multi_agent_v1' },
    { type: 'function', name: 'wait', namespace: 'multi_agent_v1' },
  ],
  toolChoice: { type: 'tool', name: 'spawn' },
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'go' }] },
    { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'spawn', namespace: 'multi_agent_v1', arguments: '{}' }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 'ok' }] }] },
  ],
};

describe('flattenToolNamespaces', () => {
  it('should do nothing for a request without namespaced tools', () => {
    expect(flattenToolNamespaces({ ...request, tools: [{ type: 'function', name: 'a' }] })).toBeUndefined();
  });

  it('should rename namespaced functions in tools, tool choice and history', () => {
    const flattened = flattenToolNamespaces(request)!;
    expect(flattened.request.tools).toEqual([
      { type: 'function', name: 'exec_command' },
      { type: 'function', name: 'multi_agent_v1__spawn' },
      { type: 'function', name: 'multi_agent_v1__wait' },
    ]);
    expect(flattened.request.toolChoice).toEqual({ type: 'tool', name: 'multi_agent_v1__spawn' });
    expect(flattened.request.messages[1]?.content[0]).toEqual({
      type: 'tool-call',
      id: 'c1',
      name: 'multi_agent_v1__spawn',
      arguments: '{}',
    });
  });

  it('should give calls in the answer their namespace back, and leave other calls alone', async () => {
    const flattened = flattenToolNamespaces(request)!;
    const response = flattened.restoreResponse({
      id: 'r',
      model: 'm',
      finishReason: { unified: 'tool-calls' },
      usage: {},
      content: [
        { type: 'tool-call', id: 'c2', name: 'multi_agent_v1__wait', arguments: '{}' },
        { type: 'tool-call', id: 'c3', name: 'exec_command', arguments: '{}' },
      ],
    });
    expect(response.content).toEqual([
      { type: 'tool-call', id: 'c2', name: 'wait', namespace: 'multi_agent_v1', arguments: '{}' },
      { type: 'tool-call', id: 'c3', name: 'exec_command', arguments: '{}' },
    ]);
    const event = flattened.restoreEvent({ type: 'tool-call-start', id: 'b0', toolCallId: 'c2', name: 'multi_agent_v1__spawn' });
    expect(event).toEqual({ type: 'tool-call-start', id: 'b0', toolCallId: 'c2', name: 'spawn', namespace: 'multi_agent_v1' });
  });

  it('should keep names within 64 characters and unique', () => {
    const long = 'n'.repeat(40);
    const flattened = flattenToolNamespaces({
      ...request,
      toolChoice: undefined,
      tools: [
        { type: 'function', name: `${long}_a`, namespace: long },
        { type: 'function', name: `${long}_b`, namespace: long },
      ],
    })!;
    const names = flattened.request.tools!.map((tool) => (tool.type === 'function' ? tool.name : ''));
    expect(names.every((name) => name.length <= 64 && /^[a-zA-Z0-9_-]+$/.test(name))).toBe(true);
    expect(new Set(names).size).toBe(2);
  });
});
