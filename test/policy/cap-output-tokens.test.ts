import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../src/canonical/index.js';
import { capOutputTokens } from '../../src/policy/cap-output-tokens.js';

const plain: CanonicalRequest = { model: 'm', messages: [], stream: false };

describe('capOutputTokens', () => {
  it('should leave a request within the cap as it is', () => {
    const request = { ...plain, maxOutputTokens: 100 };
    expect(capOutputTokens(100, request, 'chat')).toBe(request);
  });

  it('should lower a larger maximum, and send the cap when none is set', () => {
    expect(capOutputTokens(100, { ...plain, maxOutputTokens: 5000 }, 'chat').maxOutputTokens).toBe(100);
    expect(capOutputTokens(100, plain, 'responses').maxOutputTokens).toBe(100);
  });

  it('should scale a thinking budget that would take the output past the cap, keeping its share', () => {
    const capped = capOutputTokens(
      16000,
      { ...plain, maxOutputTokens: 32000, reasoning: { mode: 'enabled', budgetTokens: 24000 } },
      'messages',
    );
    expect(capped).toMatchObject({ maxOutputTokens: 16000, reasoning: { mode: 'enabled', budgetTokens: 12000 } });
  });

  it('should hold a budget at or over the maximum (sent as budget + maximum) to the cap in total', () => {
    const capped = capOutputTokens(4000, { ...plain, maxOutputTokens: 1000, reasoning: { budgetTokens: 5000 } }, 'messages');
    expect(capped.maxOutputTokens).toBe(4000);
    expect(capped.reasoning?.budgetTokens).toBe(3333);
  });

  it("should lower Chat's superseded max_tokens kept beside max_completion_tokens", () => {
    const capped = capOutputTokens(100, { ...plain, maxOutputTokens: 50, extensions: { chat: { max_tokens: 900 } } }, 'chat');
    expect(capped.extensions?.chat?.max_tokens).toBe(100);
  });
});
