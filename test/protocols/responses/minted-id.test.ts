import { describe, expect, it } from 'vitest';
import { mintResponsesItemId } from '../../../src/protocols/responses/minted-id.js';

describe('mintResponsesItemId', () => {
  it('should give an id with OpenAI prefix, the same for the same seed', () => {
    expect(mintResponsesItemId('fc', 'toolu_01')).toMatch(/^fc_sy[0-9a-f]{14}$/);
    expect(mintResponsesItemId('fc', 'toolu_01')).toBe(mintResponsesItemId('fc', 'toolu_01'));
  });

  it('should give different ids for different seeds and prefixes', () => {
    const ids = new Set(
      ['a', 'b', 'toolu_01', 'toolu_02'].flatMap((seed) => [mintResponsesItemId('fc', seed), mintResponsesItemId('msg', seed)]),
    );
    expect(ids.size).toBe(8);
  });
});
