import type { MediaSource, ProviderDefinedPart, TextPart, UserContentPart } from '../../canonical/index.js';
import { createChatFieldError } from './request-error.js';
import { isChatKnownUserPart, type ChatOtherPart, type ChatTextPart, type ChatUserPart } from './message-schema.js';
import { pickUnknownFields } from '../unknown-fields.js';
import { withChatExtensions } from './extensions.js';

/** OpenAI Chat accepts only PDFs as `file` parts; raw base64 `file_data` (no data URL) is read as one. */
const defaultFileMediaType = 'application/pdf';

/** `data:<media type>;base64,<data>` → its parts; `undefined` for anything else. */
export function parseChatDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+)(?:;[^;,=]+=[^;,]*)*;base64,(.*)$/s.exec(url);
  if (match === null) return undefined;
  return { mediaType: match[1] ?? '', data: match[2] ?? '' };
}

/** A wire text part → canonical text (unknown keys such as `prompt_cache_breakpoint` in `extensions.chat`). */
export function decodeChatTextPart(part: ChatTextPart): TextPart {
  return withChatExtensions({ type: 'text', text: part.text }, pickUnknownFields(part, ['type', 'text']));
}

/** `content` of system, developer and tool messages: a string is one text part. */
export function decodeChatTextContent(content: string | readonly ChatTextPart[]): TextPart[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content.map(decodeChatTextPart);
}

/** A part whose `type` the schema does not know, carried verbatim for Chat providers only. */
export function decodeChatOtherPart(part: ChatOtherPart): ProviderDefinedPart {
  return { type: 'provider-defined', protocol: 'chat', kind: part.type, data: { ...part } };
}

function nestedUnknown(key: string, object: Record<string, unknown>, known: readonly string[]) {
  const unknown = pickUnknownFields(object, known);
  return unknown === undefined ? undefined : { [key]: unknown };
}

function decodeFileSource(
  file: { file_data?: string | null | undefined; file_id?: string | null | undefined },
  param: string,
): MediaSource {
  if (file.file_data !== undefined && file.file_data !== null) {
    const dataUrl = parseChatDataUrl(file.file_data);
    return dataUrl === undefined
      ? { kind: 'base64', mediaType: defaultFileMediaType, data: file.file_data }
      : { kind: 'base64', ...dataUrl };
  }
  if (file.file_id !== undefined && file.file_id !== null) return { kind: 'file-id', fileId: file.file_id };
  throw createChatFieldError(`${param}.file`, 'expected file_data or file_id');
}

function decodeUserPart(part: ChatUserPart, param: string): UserContentPart {
  if (!isChatKnownUserPart(part)) return decodeChatOtherPart(part);
  const partUnknown = pickUnknownFields(part, ['type', part.type]);
  switch (part.type) {
    case 'text':
      return decodeChatTextPart(part);
    case 'image_url': {
      const { url, detail } = part.image_url;
      const dataUrl = parseChatDataUrl(url);
      const source: MediaSource = dataUrl === undefined ? { kind: 'url', url } : { kind: 'base64', ...dataUrl };
      const image = withChatExtensions(
        { type: 'image', source, ...(detail === undefined || detail === null ? {} : { detail }) },
        partUnknown,
      );
      return withChatExtensions(image, nestedUnknown('image_url', part.image_url, ['url', 'detail']));
    }
    case 'input_audio': {
      const audio = withChatExtensions({ type: 'audio', data: part.input_audio.data, format: part.input_audio.format }, partUnknown);
      return withChatExtensions(audio, nestedUnknown('input_audio', part.input_audio, ['data', 'format']));
    }
    case 'file': {
      const { file } = part;
      const source = decodeFileSource(file, param);
      // With both file_data and file_id, file_data is the source and file_id stays in extensions.
      const keptKnown = source.kind === 'file-id' ? ['file_id', 'filename'] : ['file_data', 'filename'];
      const filePart = withChatExtensions(
        {
          type: 'file',
          source,
          ...(file.filename === undefined || file.filename === null ? {} : { filename: file.filename }),
        },
        partUnknown,
      );
      return withChatExtensions(filePart, nestedUnknown('file', file, keptKnown));
    }
  }
}

/** `content` of a user message: a string is one text part; parts are decoded in order. */
export function decodeChatUserContent(content: string | readonly ChatUserPart[], param: string): UserContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part, index) => decodeUserPart(part, `${param}[${index}]`));
}
