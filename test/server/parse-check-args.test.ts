import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../src/server/parse-cli-args.js';

const base = ['check', '--base-url', 'http://localhost:8787/v1', '--model', 'mock'];

describe('switchyard check flags', () => {
  it('should default to every protocol and a 60 s timeout, the key left to the environment', () => {
    expect(parseCliArgs(base)).toEqual({
      command: 'check',
      baseUrl: 'http://localhost:8787/v1',
      key: undefined,
      model: 'mock',
      protocols: ['chat', 'responses', 'messages'],
      timeoutMs: 60_000,
      json: false,
    });
    expect(parseCliArgs([...base, '--key', 'k', '--protocol', 'messages', '--timeout', '2.5', '--json'])).toMatchObject({
      key: 'k',
      protocols: ['messages'],
      timeoutMs: 2_500,
      json: true,
    });
  });

  it.each([
    [['check', '--model', 'mock'], "'check' needs --base-url"],
    [['check', '--base-url', 'localhost:8787', '--model', 'mock'], "got 'localhost:8787'"],
    [[...base, '--protocol', 'grpc'], "--protocol takes chat, responses, messages or all; got 'grpc'"],
    [[...base, '--timeout', '0'], '--timeout takes seconds'],
    [[...base, '--port', '1'], "'check' does not take --port"],
    [[...base, 'extra'], "'check' takes no words after it"],
  ])('should refuse %j', (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(message);
  });
});
