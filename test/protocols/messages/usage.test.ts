import { describe, expect, it } from 'vitest';
import { decodeMessagesUsage, encodeMessagesDeltaUsage, encodeMessagesUsage } from '../../../src/protocols/messages/usage.js';

describe('encodeMessagesUsage', () => {
  it('should subtract cache reads and writes from input tokens', () => {
    expect(encodeMessagesUsage({ inputTokens: 1000, cachedInputTokens: 600, cacheWriteTokens: 100, outputTokens: 50 })).toMatchObject({
      input_tokens: 300,
      cache_read_input_tokens: 600,
      cache_creation_input_tokens: 100,
      output_tokens: 50,
    });
  });

  it('should never report negative input tokens', () => {
    expect(encodeMessagesUsage({ inputTokens: 10, cachedInputTokens: 50 }).input_tokens).toBe(0);
  });

  it('should emit 0 for unknown counts the SDK requires, and null for unknown cache counts and details', () => {
    expect(encodeMessagesUsage({})).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
      cache_creation: null,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: null,
      inference_geo: null,
      speed: null,
    });
  });

  it('should report reasoning tokens as thinking_tokens', () => {
    expect(encodeMessagesUsage({ outputTokens: 90, reasoningTokens: 40 }).output_tokens_details).toEqual({ thinking_tokens: 40 });
  });
});

describe('encodeMessagesDeltaUsage', () => {
  it('should send null for unknown input counts so the client keeps message_start values', () => {
    expect(encodeMessagesDeltaUsage({ outputTokens: 7 })).toEqual({
      input_tokens: null,
      output_tokens: 7,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
      output_tokens_details: null,
      server_tool_use: null,
    });
  });

  it('should send the full input side when known', () => {
    expect(encodeMessagesDeltaUsage({ inputTokens: 120, cachedInputTokens: 100, outputTokens: 7 })).toMatchObject({
      input_tokens: 20,
      cache_read_input_tokens: 100,
      output_tokens: 7,
    });
  });
});

describe('decodeMessagesUsage', () => {
  it('should add cache reads and writes to the input total', () => {
    expect(
      decodeMessagesUsage({ input_tokens: 20, cache_read_input_tokens: 100, cache_creation_input_tokens: 5, output_tokens: 7 }),
    ).toEqual({ inputTokens: 125, cachedInputTokens: 100, cacheWriteTokens: 5, outputTokens: 7, totalTokens: 132 });
  });

  it('should leave unknown counts undefined', () => {
    expect(decodeMessagesUsage({ output_tokens: 3, cache_read_input_tokens: null })).toEqual({ outputTokens: 3 });
  });

  it('should read thinking tokens as reasoning tokens', () => {
    expect(decodeMessagesUsage({ output_tokens_details: { thinking_tokens: 9 } })).toEqual({ reasoningTokens: 9 });
  });
});
