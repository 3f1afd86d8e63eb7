import { describe, expect, it } from 'vitest';
import { authenticate } from '../../src/access/authenticate.js';
import { GatewayError } from '../../src/canonical/index.js';

const verify = (key: string) => key === 'good';

/** The error code `check` throws or rejects with; synchronous and asynchronous verdicts alike. */
async function codeOf(check: () => Promise<void> | undefined): Promise<string | undefined> {
  try {
    await check();
    return undefined;
  } catch (error) {
    return GatewayError.isInstance(error) ? error.code : 'not-a-gateway-error';
  }
}

describe('authenticate', () => {
  it('should accept a valid key', async () => {
    expect(await codeOf(() => authenticate({ authorization: 'Bearer good' }, verify, false))).toBeUndefined();
  });

  it('should reject a missing key with MISSING_API_KEY', async () => {
    expect(await codeOf(() => authenticate({}, verify, false))).toBe('MISSING_API_KEY');
  });

  it('should reject a wrong key with INVALID_API_KEY', async () => {
    expect(await codeOf(() => authenticate({ authorization: 'Bearer bad' }, verify, false))).toBe('INVALID_API_KEY');
  });

  it('should diagnose Bearer Bearer with DOUBLE_BEARER', async () => {
    expect(await codeOf(() => authenticate({ authorization: 'Bearer Bearer good' }, verify, false))).toBe('DOUBLE_BEARER');
  });

  it('should await an async verifier, and answer at once for a synchronous one', async () => {
    const slow = async (key: string) => key === 'later';
    expect(await codeOf(() => authenticate({ 'x-api-key': 'later' }, slow, true))).toBeUndefined();
    expect(await codeOf(() => authenticate({ 'x-api-key': 'sooner' }, slow, true))).toBe('INVALID_API_KEY');
    expect(authenticate({ 'x-api-key': 'later' }, slow, true)).toBeInstanceOf(Promise);
    expect(authenticate({ authorization: 'Bearer good' }, verify, false)).toBeUndefined();
  });

  it('should never put the key in the error message', async () => {
    try {
      await authenticate({ authorization: 'Bearer sk-secret-123' }, verify, false);
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('sk-secret-123');
    }
  });
});
