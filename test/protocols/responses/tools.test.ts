import { describe, expect, it } from 'vitest';
import { decodeResponsesTools, encodeResponsesTools } from '../../../src/protocols/responses/tools.js';

const wireTools = [
  {
    type: 'function',
    name: 'get_weather',
    description: 'Weather',
    parameters: { type: 'object', properties: {} },
    strict: true,
    defer_loading: true,
  },
  { type: 'function', name: 'ping', parameters: null, strict: null },
  {
    type: 'namespace',
    name: 'files',
    description: 'File tools',
    tools: [
      { type: 'function', name: 'read', parameters: { type: 'object' } },
      { type: 'custom', name: 'patch', format: { type: 'text' } },
    ],
  },
  { type: 'custom', name: 'apply_patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: x' } },
  { type: 'mcp', server_label: 'deepwiki', server_url: 'https://mcp.deepwiki.com/mcp', require_approval: 'never' },
  { type: 'image_generation' },
];

describe('decodeResponsesTools', () => {
  it('should decode functions, namespace members, custom and hosted tools', () => {
    expect(decodeResponsesTools(wireTools, ['tools'])).toEqual([
      {
        type: 'function',
        name: 'get_weather',
        description: 'Weather',
        parameters: { type: 'object', properties: {} },
        strict: true,
        extensions: { responses: { defer_loading: true } },
      },
      // `strict` left unset is remembered: OpenAI's default applies to it, not `false`.
      { type: 'function', name: 'ping', extensions: { responses: { strict_unset: true } } },
      {
        type: 'function',
        name: 'read',
        parameters: { type: 'object' },
        namespace: 'files',
        extensions: { responses: { strict_unset: true, namespace_tool: { description: 'File tools' } } },
      },
      {
        type: 'provider-defined',
        protocol: 'responses',
        kind: 'custom',
        name: 'patch',
        definition: { type: 'custom', name: 'patch', format: { type: 'text' }, namespace: 'files' },
      },
      { type: 'provider-defined', protocol: 'responses', kind: 'custom', name: 'apply_patch', definition: wireTools[3] },
      { type: 'provider-defined', protocol: 'responses', kind: 'mcp', definition: wireTools[4] },
      { type: 'provider-defined', protocol: 'responses', kind: 'image_generation', definition: { type: 'image_generation' } },
    ]);
  });
});

describe('encodeResponsesTools', () => {
  it('should give back the wire tools, namespaces regrouped', () => {
    expect(encodeResponsesTools(decodeResponsesTools(wireTools, ['tools']))).toEqual([
      wireTools[0],
      { type: 'function', name: 'ping', parameters: null, strict: null },
      {
        type: 'namespace',
        name: 'files',
        description: 'File tools',
        tools: [
          { type: 'function', name: 'read', parameters: { type: 'object' }, strict: null },
          { type: 'custom', name: 'patch', format: { type: 'text' } },
        ],
      },
      wireTools[3],
      wireTools[4],
      wireTools[5],
    ]);
  });

  it('should leave out tools only another protocol understands', () => {
    expect(
      encodeResponsesTools([{ type: 'provider-defined', protocol: 'messages', kind: 'bash_20250124', name: 'bash', definition: {} }]),
    ).toEqual([]);
  });
});
