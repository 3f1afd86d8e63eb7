import { describe, expect, it } from 'vitest';
import { messagesCodec } from '../../../src/protocols/messages/index.js';
import { jsonFixture } from '../../helpers/fixtures.js';

describe('messagesCodec', () => {
  it('should speak the messages protocol with the Messages codec functions', () => {
    expect(messagesCodec.protocol).toBe('messages');
    expect(messagesCodec.decodeRequest({ model: 'm', max_tokens: 1, messages: [] })).toMatchObject({ model: 'm' });
  });

  it('should list caching, routing and telemetry fields as hints, and not mcp_servers', () => {
    expect([...messagesCodec.hintFields].sort()).toEqual(
      [
        'cache_control',
        'container',
        'context_management',
        'diagnostics',
        'inference_geo',
        'metadata',
        'service_tier',
        'speed',
        'user_profile_id',
        'workspace_id',
      ].sort(),
    );
    expect(messagesCodec.hintFields.has('mcp_servers')).toBe(false);
  });

  it('should leave only hint fields in the extensions of a real Claude Code request', () => {
    const body: unknown = jsonFixture('messages', 'claude-code-first-request');
    const fields = Object.keys(messagesCodec.decodeRequest(body).extensions?.messages ?? {});
    expect(fields.length).toBeGreaterThan(0);
    expect(fields.filter((field) => !messagesCodec.hintFields.has(field))).toEqual([]);
  });
});
