import { unsupportedFeatureError } from '../../canonical/index.js';
import type { FilePart, ImagePart, MediaSource, TextPart, UserContentPart } from '../../canonical/index.js';
import type { ChatDialect } from './dialect.js';
import { mergeChatFields, readChatExtensionFields, readNestedFields } from './extension-fields.js';

/** A Chat content part as sent upstream. */
export type ChatWirePart = Record<string, unknown> & { type: string };

/** Where an encoded part sits, for error messages: the upstream model and the canonical path. */
export interface ChatPartScope {
  model: string;
  param: string;
}

/** `data:<media type>;base64,<data>`. */
export function encodeChatDataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

/** A text part with the fields a Chat client sent on it (`prompt_cache_breakpoint`, …). */
export function encodeChatTextPart(part: TextPart, skip: readonly string[] = []): ChatWirePart {
  return mergeChatFields({ type: 'text', text: part.text }, readChatExtensionFields(part, skip));
}

/**
 * Text-only `content`: one plain part is a string; several parts are an array of text parts
 * when the dialect takes arrays (or a part carries passthrough fields), else joined with "\n".
 */
export function encodeChatTextContent(
  parts: readonly TextPart[],
  dialect: ChatDialect,
  skip: readonly string[] = [],
): string | ChatWirePart[] {
  const carriesFields = parts.some(
    (part) => part.extensions?.chat !== undefined && Object.keys(readChatExtensionFields(part, skip)).length > 0,
  );
  if (carriesFields || (dialect.textPartArrays && parts.length > 1)) {
    return parts.map((part) => encodeChatTextPart(part, skip));
  }
  return parts.length === 1 ? parts[0]!.text : parts.map((part) => part.text).join('\n');
}

function mediaUrl(source: MediaSource, what: string, scope: ChatPartScope): string {
  switch (source.kind) {
    case 'url':
      return source.url;
    case 'base64':
      return encodeChatDataUrl(source.mediaType, source.data);
    case 'file-id':
      throw unsupportedFeatureError(`${what} given by file id`, scope.model, { param: scope.param });
  }
}

function encodeImage(part: ImagePart, scope: ChatPartScope): ChatWirePart {
  const fields = readChatExtensionFields(part);
  const imageUrl = mergeChatFields(
    { url: mediaUrl(part.source, 'an image', scope), ...(part.detail === undefined ? {} : { detail: part.detail }) },
    readNestedFields(fields, 'image_url'),
  );
  return mergeChatFields({ type: 'image_url', image_url: imageUrl }, fields);
}

/** PDFs as base64 data URLs or file ids; a plain-text document becomes a text part (Chat has no text document). */
function encodeFile(part: FilePart, scope: ChatPartScope): ChatWirePart {
  const { source } = part;
  if (source.kind === 'text') {
    return { type: 'text', text: part.filename === undefined ? source.text : `${part.filename}\n\n${source.text}` };
  }
  if (source.kind === 'url') throw unsupportedFeatureError('a file given by URL', scope.model, { param: scope.param });
  const fields = readChatExtensionFields(part);
  const file = mergeChatFields(
    {
      ...(source.kind === 'base64' ? { file_data: encodeChatDataUrl(source.mediaType, source.data) } : { file_id: source.fileId }),
      ...(part.filename === undefined ? {} : { filename: part.filename }),
    },
    readNestedFields(fields, 'file'),
  );
  return mergeChatFields({ type: 'file', file }, fields);
}

/** One user-content (or tool-result media) part. */
export function encodeChatUserPart(part: UserContentPart, scope: ChatPartScope): ChatWirePart {
  switch (part.type) {
    case 'text':
      return encodeChatTextPart(part);
    case 'image':
      return encodeImage(part, scope);
    case 'file':
      return encodeFile(part, scope);
    case 'audio': {
      const fields = readChatExtensionFields(part);
      const audio = mergeChatFields({ data: part.data, format: part.format }, readNestedFields(fields, 'input_audio'));
      return mergeChatFields({ type: 'input_audio', input_audio: audio }, fields);
    }
    case 'provider-defined':
      if (part.protocol !== 'chat') {
        throw unsupportedFeatureError(`'${part.kind}' content (${part.protocol} only)`, scope.model, { param: scope.param });
      }
      return { ...part.data, type: part.kind };
  }
}

/** A user message's `content`: a string for one plain text part, else an array of parts. */
export function encodeChatUserContent(
  parts: readonly UserContentPart[],
  dialect: ChatDialect,
  scope: ChatPartScope,
): string | ChatWirePart[] {
  if (parts.every((part): part is TextPart => part.type === 'text')) {
    return parts.length === 0 ? '' : encodeChatTextContent(parts, dialect);
  }
  return parts.map((part, index) => encodeChatUserPart(part, { ...scope, param: `${scope.param}[${index}]` }));
}
