import { describe, expect, it } from 'vitest';
import { UpstreamRedactor } from '../../../src/providers/transport/upstream-redactor.js';

describe('UpstreamRedactor.maskSecrets', () => {
  const redactor = new UpstreamRedactor(
    'acme',
    new URL('https://api.acme.test/v1?key=query-secret-0123456789'),
    { Authorization: 'Bearer sk-acme-0123456789abcdef', 'x-api-key': 'second-secret-abcdef012345', 'x-other': 'not-a-credential-at-all' },
    undefined,
  );

  it('masks each credential the gateway sends, whole, wherever it appears', () => {
    expect(redactor.maskSecrets('echo: Bearer sk-acme-0123456789abcdef and sk-acme-0123456789abcdef')).toBe(
      'echo: [redacted] and [redacted]',
    );
    expect(redactor.maskSecrets('{"key":"second-secret-abcdef012345"}')).toBe('{"key":"[redacted]"}');
    expect(redactor.maskSecrets('?key=query-secret-0123456789')).toBe('?key=[redacted]');
  });

  it('leaves a text without credentials as it is', () => {
    const text = 'data: {"choices":[{"delta":{"content":"Bearer tokens and sk- prefixes, not-a-credential-at-all"}}]}';
    expect(redactor.maskSecrets(text)).toBe(text);
  });
});
