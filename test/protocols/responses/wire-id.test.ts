import { describe, expect, it } from 'vitest';
import { encodeResponsesId, encodeResponsesItemId } from '../../../src/protocols/responses/wire-id.js';

describe('encodeResponsesId', () => {
  it('should derive resp_<suffix> from the request id unless the provider gave a resp_ id', () => {
    expect(encodeResponsesId('req_abc')).toBe('resp_abc');
    expect(encodeResponsesId('req_abc', 'msg_01')).toBe('resp_abc');
    expect(encodeResponsesId('req_abc', 'resp_up')).toBe('resp_up');
  });
});

describe('encodeResponsesItemId', () => {
  it('should carry the OpenAI item prefix and the output index', () => {
    expect(encodeResponsesItemId('req_abc', 'msg', 0)).toBe('msg_abc_0');
    expect(encodeResponsesItemId('req_abc', 'fc', 2)).toBe('fc_abc_2');
    expect(encodeResponsesItemId('other', 'rs', 1)).toBe('rs_other_1');
  });
});
