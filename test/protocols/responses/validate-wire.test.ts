import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/canonical/index.js';
import { formatResponsesWirePath, validateResponsesWire } from '../../../src/protocols/responses/validate-wire.js';

describe('formatResponsesWirePath', () => {
  it('should name fields the way the wire does', () => {
    expect(formatResponsesWirePath(['input', 2, 'content', 0, 'text'])).toBe('input[2].content[0].text');
    expect(formatResponsesWirePath([])).toBe('');
  });
});

describe('validateResponsesWire', () => {
  it('should return the parsed value, unknown keys kept', () => {
    expect(validateResponsesWire(z.looseObject({ a: z.string() }), { a: 'x', b: 1 }, [])).toEqual({ a: 'x', b: 1 });
  });

  it('should prefix the issue path with the given path', () => {
    const error = (() => {
      try {
        validateResponsesWire(z.looseObject({ name: z.string() }), { name: 3 }, ['tools', 1]);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(GatewayError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ param: 'tools[1].name', code: 'INVALID_REQUEST_BODY', kind: 'invalid_request' });
  });

  it('should report the deepest issue of a union whose array branch got further', () => {
    const schema = z.looseObject({ input: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]) });
    expect(() => validateResponsesWire(schema, { input: [{ type: 3 }] }, [])).toThrow(expect.objectContaining({ param: 'input[0].type' }));
  });
});
