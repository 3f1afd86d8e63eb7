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

  describe('a key where the gateway does not read it', () => {
    async function messageOf(headers: Record<string, string>, acceptXApiKey = false): Promise<string> {
      try {
        await authenticate(headers, verify, acceptXApiKey);
        return 'accepted';
      } catch (error) {
        expect(error).toMatchObject({ status: 401, code: 'MISSING_API_KEY' });
        return (error as Error).message;
      }
    }

    it('should say the Authorization header lacks the Bearer scheme', async () => {
      expect(await messageOf({ authorization: 'sk-secret-123' })).toBe(
        "No API key was read: the Authorization header holds a value without the 'Bearer ' scheme (the key alone?). Send your gateway key as 'Authorization: Bearer <key>'.",
      );
    });

    it('should name another scheme, and offer x-api-key where it is read', async () => {
      expect(await messageOf({ authorization: 'Basic c2stc2VjcmV0' }, true)).toBe(
        "No API key was read: the Authorization header uses the 'Basic' scheme, and this gateway reads only 'Bearer'. Send your gateway key as 'Authorization: Bearer <key>' or in an 'x-api-key' header.",
      );
    });

    it('should say Bearer came with no key', async () => {
      expect(await messageOf({ authorization: 'Bearer ' })).toContain("the Authorization header says 'Bearer' with no key after it");
    });

    it('should say x-api-key is not read by an OpenAI endpoint', async () => {
      expect(await messageOf({ 'x-api-key': 'sk-secret-123' })).toBe(
        "No API key was read: a key was sent in the 'x-api-key' header, which Anthropic clients use, and this OpenAI-style endpoint reads it from the Authorization header. Send it as 'Authorization: Bearer <key>' (the OpenAI SDKs do this with their apiKey option).",
      );
    });

    it('should say where to send it when nothing was sent', async () => {
      expect(await messageOf({})).toBe("No API key was sent. Send your gateway key as 'Authorization: Bearer <key>'.");
    });

    it('should never repeat what may be the key', async () => {
      const sent: Record<string, string>[] = [
        { authorization: 'sk-secret-123' },
        { authorization: 'Token sk-secret-123' },
        { 'x-api-key': 'sk-secret-123' },
        { authorization: 'sk-secret 123' },
      ];
      for (const headers of sent) {
        expect(await messageOf(headers)).not.toContain('secret');
      }
    });
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
