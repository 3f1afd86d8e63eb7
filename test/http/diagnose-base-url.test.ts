import { describe, expect, it } from 'vitest';
import { diagnoseBaseUrl } from '../../src/http/diagnose-base-url.js';
import type { HttpRequest } from '../../src/http/types.js';

const request = (headers: Record<string, string> = {}) => ({ method: 'POST', headers }) as unknown as HttpRequest;
const root = 'http://localhost:8787';

describe('diagnoseBaseUrl', () => {
  describe('status per protocol', () => {
    it('should be a 404 in the OpenAI protocols, whose clients show its message', () => {
      for (const protocol of ['chat', 'responses'] as const) {
        expect(diagnoseBaseUrl(request(), '/v1/v1/chat/completions', root, protocol)).toMatchObject({
          code: 'DOUBLE_V1_PATH',
          status: 404,
        });
      }
    });

    it('should be a 400 invalid request in Messages: Claude Code reads a 404 there as a missing model', () => {
      expect(diagnoseBaseUrl(request(), '/v1/v1/messages', root, 'messages')).toMatchObject({
        code: 'DOUBLE_V1_PATH',
        status: 400,
        kind: 'invalid_request',
      });
      expect(diagnoseBaseUrl(request({ 'x-api-key': 'k' }), '/messages', root, 'messages')).toMatchObject({
        code: 'MISSING_V1_PATH',
        status: 400,
      });
    });
  });

  it('should leave a path without /v1 that does not look like an API call to the host app', () => {
    expect(diagnoseBaseUrl(request(), '/messages', root, 'messages')).toBeUndefined();
    expect(diagnoseBaseUrl(request({ authorization: 'Bearer k' }), '/inbox', root, 'chat')).toBeUndefined();
  });

  describe('the model list', () => {
    const get = (headers: Record<string, string> = {}) => ({ method: 'GET', headers }) as unknown as HttpRequest;

    it('should explain /models without /v1 asked for with a key: an OpenAI client whose base URL is the API root', () => {
      expect(diagnoseBaseUrl(get({ authorization: 'Bearer k' }), '/models', root, 'chat')).toMatchObject({
        code: 'MISSING_V1_PATH',
        status: 404,
      });
      expect(diagnoseBaseUrl(get({ 'x-api-key': 'k' }), '/models/mock', root, 'chat')).toMatchObject({
        code: 'MISSING_V1_PATH',
        status: 404,
      });
      // An Anthropic client's too: a 404 is what sends it (and `switchyard check`) to another base URL.
      expect(diagnoseBaseUrl(get({ 'x-api-key': 'k', 'anthropic-version': '2023-06-01' }), '/models', root, 'messages')).toMatchObject({
        code: 'MISSING_V1_PATH',
        status: 404,
      });
    });

    it("should leave /models without a key, with a browser's Basic credentials, or posted to, to the host app", () => {
      expect(diagnoseBaseUrl(get(), '/models', root, 'chat')).toBeUndefined();
      expect(diagnoseBaseUrl(get({ authorization: 'Basic dTpw' }), '/models', root, 'chat')).toBeUndefined();
      expect(diagnoseBaseUrl(request({ authorization: 'Bearer k' }), '/models', root, 'chat')).toBeUndefined();
      expect(diagnoseBaseUrl(get({ authorization: 'Bearer k' }), '/models/', root, 'chat')).toBeUndefined();
    });
  });

  it('should name both base URLs', () => {
    expect(diagnoseBaseUrl(request(), '/v1/v1/messages', root, 'messages')?.message).toContain(
      `Anthropic clients (and ANTHROPIC_BASE_URL) take ${root}; OpenAI clients take ${root}/v1.`,
    );
  });
});
