import { describe, expect, it } from 'vitest';
import { encodeMessagesToolId } from '../../../src/protocols/messages/tool-id.js';

describe('encodeMessagesToolId', () => {
  it('should keep ids Anthropic accepts', () => {
    expect(encodeMessagesToolId('toolu_01A09q90qw90lq917835lq9')).toBe('toolu_01A09q90qw90lq917835lq9');
    expect(encodeMessagesToolId('call_abc-DEF')).toBe('call_abc-DEF');
  });

  it('should map other ids into the accepted alphabet, deterministically', () => {
    const id = encodeMessagesToolId('github.search:1');
    expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(id.startsWith('github_search_1_')).toBe(true);
    expect(encodeMessagesToolId('github.search:1')).toBe(id);
  });

  it('should keep ids that differ only in invalid characters apart', () => {
    expect(encodeMessagesToolId('a.b')).not.toBe(encodeMessagesToolId('a:b'));
    expect(encodeMessagesToolId('a.b')).not.toBe('a_b');
  });

  it('should give an empty id a valid one', () => {
    expect(encodeMessagesToolId('')).toMatch(/^[a-zA-Z0-9_-]+$/);
  });
});
