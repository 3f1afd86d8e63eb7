import { describe, expect, it } from 'vitest';
import type { UserContentPart } from '../../../src/canonical/index.js';
import { encodeMessagesAssistantPart, encodeMessagesUserPart } from '../../../src/protocols/messages/content-encoder.js';
import { encodeFailure } from './request-test-kit.js';

const user = (part: UserContentPart) => encodeMessagesUserPart(part, 'claude-gateway');

describe('encodeMessagesUserPart', () => {
  describe('images', () => {
    it('should send a URL image as a url source and drop the OpenAI detail hint', () => {
      expect(user({ type: 'image', source: { kind: 'url', url: 'https://example.com/cat.png' }, detail: 'high' })).toEqual({
        type: 'image',
        source: { type: 'url', url: 'https://example.com/cat.png' },
      });
    });

    it('should send base64 and data-URL images as base64 sources', () => {
      expect(user({ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } })).toEqual({
        type: 'image',
        source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
      });
      expect(user({ type: 'image', source: { kind: 'url', url: 'data:image/jpg;base64,/9j/4AAQ' } })).toEqual({
        type: 'image',
        source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' },
      });
    });

    it('should refuse a base64 image type Anthropic does not take with a 400', () => {
      const error = encodeFailure({
        messages: [{ role: 'user', content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/bmp', data: 'Qk0=' } }] }],
      });
      expect(error).toMatchObject({ status: 400, code: 'UNSUPPORTED_FEATURE' });
      expect(error.message).toContain('image/bmp');
    });

    it('should put source fields of a Messages client back into the source', () => {
      expect(
        user({
          type: 'image',
          source: { kind: 'file-id', fileId: 'file_1' },
          extensions: { messages: { cache_control: { type: 'ephemeral' }, source: { x: 1 } } },
        }),
      ).toEqual({ type: 'image', source: { type: 'file', file_id: 'file_1', x: 1 }, cache_control: { type: 'ephemeral' } });
    });
  });

  describe('documents', () => {
    it('should send a PDF as a base64 document titled by its filename', () => {
      expect(
        user({ type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, filename: 'report.pdf' }),
      ).toEqual({
        type: 'document',
        title: 'report.pdf',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
      });
    });

    it('should send text files as plain-text documents, base64 text decoded', () => {
      expect(user({ type: 'file', source: { kind: 'base64', mediaType: 'text/markdown', data: btoa('# Title') } })).toEqual({
        type: 'document',
        source: { type: 'text', media_type: 'text/plain', data: '# Title' },
      });
      expect(user({ type: 'file', source: { kind: 'text', mediaType: 'text/plain', text: 'Notes' } })).toMatchObject({
        source: { type: 'text', data: 'Notes' },
      });
    });

    it('should refuse other file types with a 400', () => {
      const error = encodeFailure({
        messages: [{ role: 'user', content: [{ type: 'file', source: { kind: 'base64', mediaType: 'application/zip', data: 'UEs=' } }] }],
      });
      expect(error).toMatchObject({ code: 'UNSUPPORTED_FEATURE' });
      expect(error.message).toContain('application/zip');
    });
  });

  describe('what Anthropic cannot take', () => {
    it('should refuse audio input naming the model', () => {
      const error = encodeFailure({ messages: [{ role: 'user', content: [{ type: 'audio', data: 'AAAA', format: 'wav' }] }] });
      expect(error).toMatchObject({ status: 400, code: 'UNSUPPORTED_FEATURE' });
      expect(error.message).toContain("'claude-gateway'");
    });

    it("should refuse another protocol's provider-defined content and pass Anthropic's verbatim", () => {
      expect(() => user({ type: 'provider-defined', protocol: 'responses', kind: 'web_search_call', data: {} })).toThrow(/web_search_call/);
      expect(
        user({
          type: 'provider-defined',
          protocol: 'messages',
          kind: 'search_result',
          data: { type: 'search_result', source: 's', title: 't', content: [] },
        }),
      ).toEqual({
        type: 'search_result',
        source: 's',
        title: 't',
        content: [],
      });
    });
  });
});

describe('encodeMessagesAssistantPart', () => {
  it('should send a refusal as text', () => {
    expect(encodeMessagesAssistantPart({ type: 'refusal', text: 'I cannot help with that.' }, 'm')).toEqual({
      type: 'text',
      text: 'I cannot help with that.',
    });
  });
});
