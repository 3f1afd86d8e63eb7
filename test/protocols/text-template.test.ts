import { describe, expect, it } from 'vitest';
import { cutTextTemplate, readTemplateText } from '../../src/protocols/text-template.js';
import { type Chunk, chunkOf, textOfChunk } from '../helpers/chat-chunks.js';

// The decoders' use of templates is tested with each decoder (`stream-templates.test.ts` in
// chat-completions/, messages/ and responses/): decoded as parsing every event would.

/** The template of a chunk written as OpenAI writes it. */
function templateOf(chunk: Chunk) {
  return cutTextTemplate(JSON.stringify(chunk), 'content', chunk.choices[0]!.delta.content as string, textOfChunk);
}

describe('text templates', () => {
  it('reads the text of a chunk that differs only in its text, escapes decoded', () => {
    const template = templateOf(chunkOf('The '))!;
    expect(template).toBeDefined();
    for (const text of ['change ', '', 'a "quoted"\nline\t\\', 'é😀\u2028', '</script>\u0000']) {
      expect(readTemplateText(template, JSON.stringify(chunkOf(text)))).toBe(text);
    }
    // The same text written with other escapes.
    expect(readTemplateText(template, JSON.stringify(chunkOf('x')).replace('"x"', '"\\u00e9\\/"'))).toBe('é/');
  });

  it('reads nothing from a chunk that differs elsewhere or whose middle is not one string', () => {
    const template = templateOf(chunkOf('The '))!;
    const written = (text: string) => JSON.stringify(chunkOf('@')).replace('"@"', `"${text}"`);
    expect(readTemplateText(template, JSON.stringify(chunkOf('x', { id: 'chatcmpl-2' })))).toBeUndefined();
    expect(readTemplateText(template, JSON.stringify({ ...chunkOf('x'), usage: { total_tokens: 3 } }))).toBeUndefined();
    expect(
      readTemplateText(template, JSON.stringify(chunkOf('x', { choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }] }))),
    ).toBeUndefined();
    // Two strings where one was: `"a","content":"b"`.
    expect(readTemplateText(template, written('a","content":"b'))).toBeUndefined();
    expect(readTemplateText(template, written('raw\nnewline'))).toBeUndefined();
    // A last backslash escapes the closing quote; a bad escape is not JSON.
    expect(readTemplateText(template, written('ends with \\'))).toBeUndefined();
    expect(readTemplateText(template, written('bad \\x escape'))).toBeUndefined();
  });

  it('is not cut where the last "content" member is not the delta text', () => {
    // A later member named content: the template would be cut around the wrong string.
    const later = { ...chunkOf('The '), extra: { content: 'other' } };
    expect(templateOf(later)).toBeUndefined();
    // The delta names content twice: the parser keeps the last, which the text is cut around.
    const twice = JSON.stringify(chunkOf('first')).replace('{"content":"first"}', '{"content":"first","content":"second"}');
    const template = cutTextTemplate(twice, 'content', 'second', textOfChunk)!;
    expect(readTemplateText(template, twice.replace('"second"', '"third"'))).toBe('third');
  });
});
