import { describe, expect, it } from 'vitest';
import type { CanonicalRequest, CutStream } from '../../src/canonical/index.js';
import { cutStreamUsage } from '../../src/usage/cut-stream-usage.js';

const request: CanonicalRequest = { model: 'm', stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }] };

const cut = (fields: Partial<CutStream>): CutStream => ({
  clientLeft: true,
  startUsage: { inputTokens: 100 },
  outputChars: 400,
  request,
  ...fields,
});

describe('cutStreamUsage', () => {
  describe("the 'estimate' policy", () => {
    it('should count no reasoning when none was streamed', async () => {
      const { usage, estimated } = await cutStreamUsage(cut({ reasoningChars: 0 }), 'estimate');
      expect(estimated).toBe(true);
      expect(usage).toMatchObject({ inputTokens: 100, outputTokens: 100, reasoningTokens: 0 });
    });

    it("should count the reasoning text's tokens when reasoning was streamed, as part of the output", async () => {
      const { usage } = await cutStreamUsage(cut({ outputChars: 400, reasoningChars: 240 }), 'estimate');
      expect(usage).toMatchObject({ outputTokens: 100, reasoningTokens: 60 });
    });

    it('should keep reasoning unknown when the sender did not count it', async () => {
      const { usage } = await cutStreamUsage(cut({}), 'estimate');
      expect(usage?.reasoningTokens).toBeUndefined();
    });
  });
});
