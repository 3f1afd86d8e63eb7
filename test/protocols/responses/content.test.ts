import { describe, expect, it } from 'vitest';
import { decodeResponsesToolOutput, decodeResponsesUserContent } from '../../../src/protocols/responses/content.js';

describe('decodeResponsesUserContent', () => {
  it('should decode image URLs, data URLs and file ids with their detail', () => {
    expect(
      decodeResponsesUserContent(
        [
          { type: 'input_image', image_url: 'https://example.com/cat.jpg', detail: 'high' },
          { type: 'input_image', image_url: 'data:image/webp;base64,UklGRg==', detail: 'auto' },
          { type: 'input_image', file_id: 'file-abc', detail: 'original' },
        ],
        ['input', 0, 'content'],
      ),
    ).toEqual([
      { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.jpg' }, detail: 'high' },
      { type: 'image', source: { kind: 'base64', mediaType: 'image/webp', data: 'UklGRg==' }, detail: 'auto' },
      { type: 'image', source: { kind: 'file-id', fileId: 'file-abc' }, detail: 'original' },
    ]);
  });

  it('should decode files given as URL, id or raw base64 and keep extra fields', () => {
    expect(
      decodeResponsesUserContent(
        [
          { type: 'input_file', file_url: 'https://example.com/a.pdf' },
          { type: 'input_file', file_id: 'file-1', detail: 'low' },
          { type: 'input_file', file_data: 'JVBERi0=', filename: 'raw.pdf' },
        ],
        ['input', 0, 'content'],
      ),
    ).toEqual([
      { type: 'file', source: { kind: 'url', url: 'https://example.com/a.pdf' } },
      { type: 'file', source: { kind: 'file-id', fileId: 'file-1' }, extensions: { responses: { detail: 'low' } } },
      { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, filename: 'raw.pdf' },
    ]);
  });

  it('should decode audio and keep unknown part types verbatim', () => {
    expect(
      decodeResponsesUserContent(
        [
          { type: 'input_audio', input_audio: { data: 'UklGR', format: 'wav' } },
          { type: 'input_video', video_url: 'https://example.com/v.mp4' },
        ],
        ['input', 0, 'content'],
      ),
    ).toEqual([
      { type: 'audio', data: 'UklGR', format: 'wav' },
      {
        type: 'provider-defined',
        protocol: 'responses',
        kind: 'input_video',
        data: { type: 'input_video', video_url: 'https://example.com/v.mp4' },
      },
    ]);
  });

  it('should keep part-level fields such as prompt_cache_breakpoint in the part extensions', () => {
    expect(
      decodeResponsesUserContent([{ type: 'input_text', text: 'long doc', prompt_cache_breakpoint: { type: 'ephemeral' } }], ['input']),
    ).toEqual([{ type: 'text', text: 'long doc', extensions: { responses: { prompt_cache_breakpoint: { type: 'ephemeral' } } } }]);
  });
});

describe('decodeResponsesToolOutput', () => {
  it('should turn a string output into one text part', () => {
    expect(decodeResponsesToolOutput('ok', ['input', 0, 'output'])).toEqual([{ type: 'text', text: 'ok' }]);
  });

  it('should decode a file part in an array output', () => {
    expect(decodeResponsesToolOutput([{ type: 'input_file', file_data: 'data:text/plain;base64,aGk=', filename: 'a.txt' }], ['x'])).toEqual(
      [{ type: 'file', source: { kind: 'base64', mediaType: 'text/plain', data: 'aGk=' }, filename: 'a.txt' }],
    );
  });
});
