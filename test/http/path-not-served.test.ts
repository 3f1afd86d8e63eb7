import { describe, expect, it } from 'vitest';
import { pathNotServed } from '../../src/http/path-not-served.js';

const served = ['POST /v1/chat/completions', 'POST /v1/messages', 'GET /v1/models'];

describe('pathNotServed', () => {
  it.each([
    ['POST', '/v1/embeddings', 'not embeddings'],
    ['POST', '/v1/audio/transcriptions', 'not audio'],
    ['POST', '/v1/images/generations', 'not images'],
    ['POST', '/v1/completions', 'legacy Completions API'],
    ['POST', '/v1/complete', 'legacy Text Completions API'],
    ['POST', '/v1/messages/batches', 'not message batches'],
    ['GET', '/v1/files', 'not files'],
  ])('should say %s %s is not offered: text generation only', (method, path, what) => {
    const error = pathNotServed(method, path, served);
    expect(error).toMatchObject({ code: 'ENDPOINT_NOT_SUPPORTED', status: 404, retryable: false });
    expect(error.message).toContain(`${method} ${path} is not served: this gateway serves text generation only`);
    expect(error.message).toContain(what);
    expect(error.message).toContain('POST /v1/chat/completions, POST /v1/messages, GET /v1/models');
  });

  it('should answer any other path with NOT_FOUND listing what is served', () => {
    for (const path of ['/', '/v1', '/v1/embeddingsx', '/embeddings', '/v2/chat']) {
      const error = pathNotServed('GET', path, served);
      expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
      expect(error.message).toBe(
        `Nothing is served at GET ${path}. This gateway serves POST /v1/chat/completions, POST /v1/messages, GET /v1/models.`,
      );
    }
  });

  it('should name the served endpoint a path is a near miss of', () => {
    for (const [path, meant] of [
      ['/v1/mesages', 'POST /v1/messages'],
      ['/v1/chat/completion', 'POST /v1/chat/completions'],
      ['/v1/model', 'GET /v1/models'],
    ]) {
      const error = pathNotServed('POST', path ?? '', served);
      expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
      expect(error.message).toBe(
        `Nothing is served at POST ${path}. Did you mean ${meant}? This gateway serves POST /v1/chat/completions, POST /v1/messages, GET /v1/models.`,
      );
    }
  });
});
