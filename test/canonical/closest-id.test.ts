import { describe, expect, it } from 'vitest';
import { findClosestId } from '../../src/canonical/closest-id.js';

describe('findClosestId', () => {
  const ids = ['gpt-4o-mini', 'claude-sonnet-4-5', 'mock', 'gemini-2.5-pro'];

  it('should suggest the id one typo away', () => {
    expect(findClosestId('gpt-4o-mimi', ids)).toBe('gpt-4o-mini');
  });

  it('should suggest an id that contains the requested one', () => {
    expect(findClosestId('claude-sonnet', ids)).toBe('claude-sonnet-4-5');
  });

  it('should ignore case', () => {
    expect(findClosestId('MOCK', ids)).toBe('mock');
  });

  it('should suggest nothing when no id is close', () => {
    expect(findClosestId('llama-3-70b-instruct', ids)).toBeUndefined();
  });

  it('should suggest nothing when there are no candidates', () => {
    expect(findClosestId('mock', [])).toBeUndefined();
  });
});
