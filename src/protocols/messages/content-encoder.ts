import { unsupportedFeatureError } from '../../canonical/index.js';
import type {
  AssistantContentPart,
  Extensions,
  FilePart,
  ImagePart,
  MediaSource,
  ProviderDefinedPart,
  TextPart,
  ToolResultPart,
  UserContentPart,
} from '../../canonical/index.js';
import { encodeMessagesToolInput } from './response.js';
import { encodeMessagesToolId } from './tool-id.js';

/** A request content block as it goes upstream. */
export type MessagesRequestBlock = { type: string } & Record<string, unknown>;

/** Base64 image types Anthropic accepts. */
const base64ImageTypes: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The wire fields a Messages client sent that the canonical part has no home for (same-protocol passthrough). */
export function messagesWireFields(extensions: Extensions | undefined): Record<string, unknown> {
  return extensions?.messages ?? {};
}

/** Block fields and, apart, the fields its decoder kept under `source`. */
function splitSourceFields(extensions: Extensions | undefined) {
  const { source, ...block } = messagesWireFields(extensions);
  return { block, source: isRecord(source) ? source : {} };
}

function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+)(?:;[^;,=]+=[^;,]*)*;base64,(.*)$/s.exec(url);
  return match === null ? undefined : { mediaType: (match[1] ?? '').toLowerCase(), data: match[2] ?? '' };
}

/** Text parts become `text` blocks; blank text is never sent (Anthropic rejects it). */
export function encodeMessagesTextPart(part: TextPart): MessagesRequestBlock | undefined {
  if (part.text.trim() === '') return undefined;
  return { ...messagesWireFields(part.extensions), type: 'text', text: part.text };
}

function encodeImageSource(source: MediaSource, model: string): Record<string, unknown> {
  if (source.kind === 'file-id') return { type: 'file', file_id: source.fileId };
  const inline = source.kind === 'base64' ? { mediaType: source.mediaType.toLowerCase(), data: source.data } : parseDataUrl(source.url);
  if (inline === undefined) return { type: 'url', url: source.kind === 'url' ? source.url : '' };
  const mediaType = inline.mediaType === 'image/jpg' ? 'image/jpeg' : inline.mediaType;
  if (!base64ImageTypes.has(mediaType)) {
    throw unsupportedFeatureError(
      `images of type '${mediaType}' (base64 images must be image/jpeg, image/png, image/gif or image/webp)`,
      model,
      { param: 'messages' },
    );
  }
  return { type: 'base64', media_type: mediaType, data: inline.data };
}

/** `image` block: URL, base64 (jpeg/png/gif/webp, data URLs included) or file id. `detail` has no Anthropic home and is left out. */
export function encodeMessagesImagePart(part: ImagePart, model: string): MessagesRequestBlock {
  const fields = splitSourceFields(part.extensions);
  return { ...fields.block, type: 'image', source: { ...fields.source, ...encodeImageSource(part.source, model) } };
}

function decodeBase64Text(data: string): string {
  const bytes = Uint8Array.from(atob(data), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

function encodeDocumentSource(source: FilePart['source'], model: string): Record<string, unknown> {
  if (source.kind === 'file-id') return { type: 'file', file_id: source.fileId };
  if (source.kind === 'text') return { type: 'text', media_type: 'text/plain', data: source.text };
  const inline = source.kind === 'base64' ? { mediaType: source.mediaType.toLowerCase(), data: source.data } : parseDataUrl(source.url);
  if (inline === undefined) return { type: 'url', url: source.kind === 'url' ? source.url : '' };
  if (inline.mediaType === 'application/pdf') return { type: 'base64', media_type: 'application/pdf', data: inline.data };
  if (inline.mediaType.startsWith('text/')) return { type: 'text', media_type: 'text/plain', data: decodeBase64Text(inline.data) };
  throw unsupportedFeatureError(`files of type '${inline.mediaType}' (documents must be PDF or plain text)`, model, { param: 'messages' });
}

/** `document` block (PDF, plain text, URL, file id); `filename` becomes `title` unless the client set one. */
export function encodeMessagesFilePart(part: FilePart, model: string): MessagesRequestBlock {
  const fields = splitSourceFields(part.extensions);
  const title = part.filename === undefined || 'title' in fields.block ? {} : { title: part.filename };
  return { ...fields.block, ...title, type: 'document', source: { ...fields.source, ...encodeDocumentSource(part.source, model) } };
}

/** A provider-defined part goes through verbatim only when it is Anthropic's own. */
export function encodeMessagesProviderPart(part: ProviderDefinedPart, model: string): MessagesRequestBlock {
  if (part.protocol !== 'messages')
    throw unsupportedFeatureError(`'${part.kind}' content (from the ${part.protocol} protocol)`, model, { param: 'messages' });
  return { ...part.data, type: part.kind };
}

export function encodeMessagesUserPart(part: UserContentPart, model: string): MessagesRequestBlock | undefined {
  switch (part.type) {
    case 'text':
      return encodeMessagesTextPart(part);
    case 'image':
      return encodeMessagesImagePart(part, model);
    case 'file':
      return encodeMessagesFilePart(part, model);
    case 'audio':
      throw unsupportedFeatureError('audio input', model, { param: 'messages' });
    case 'provider-defined':
      return encodeMessagesProviderPart(part, model);
  }
}

/**
 * Assistant parts → blocks. Reasoning goes only as Anthropic made it: `thinking` with its
 * signature, `redacted_thinking` with its data, byte-exact; reasoning without either (another
 * provider's) is left out, never turned into text. Tool arguments become an `input` object.
 */
export function encodeMessagesAssistantPart(part: AssistantContentPart, model: string): MessagesRequestBlock | undefined {
  const fields = messagesWireFields(part.type === 'provider-defined' ? undefined : part.extensions);
  switch (part.type) {
    case 'text':
      return encodeMessagesTextPart(part);
    case 'refusal':
      return part.text.trim() === '' ? undefined : { type: 'text', text: part.text };
    case 'reasoning':
      if (part.redactedData !== undefined && part.redactedData !== '') {
        return { ...fields, type: 'redacted_thinking', data: part.redactedData };
      }
      if (part.signature === undefined || part.signature === '') return undefined;
      return { ...fields, type: 'thinking', thinking: part.text, signature: part.signature };
    case 'tool-call':
      if (part.namespace !== undefined) {
        throw unsupportedFeatureError(`namespaced tools ('${part.namespace}.${part.name}')`, model, { param: 'messages' });
      }
      return {
        ...fields,
        type: 'tool_use',
        id: encodeMessagesToolId(part.id),
        name: part.name,
        input: encodeMessagesToolInput(part.arguments),
      };
    case 'provider-defined':
      return encodeMessagesProviderPart(part, model);
  }
}

/**
 * `tool_result` block, id sanitized like its `tool_use`. One plain text becomes the string
 * form; blank content is left out (`content` is optional).
 */
export function encodeMessagesToolResult(part: ToolResultPart, model: string): MessagesRequestBlock {
  // Tool-result content is a subset of user content, encoded the same way.
  const blocks = part.content.flatMap((content) => encodeMessagesUserPart(content, model) ?? []);
  const block: MessagesRequestBlock = {
    ...messagesWireFields(part.extensions),
    type: 'tool_result',
    tool_use_id: encodeMessagesToolId(part.toolCallId),
  };
  const only = blocks.length === 1 ? blocks[0] : undefined;
  if (only !== undefined && only.type === 'text' && Object.keys(only).length === 2) block.content = only.text;
  else if (blocks.length > 0) block.content = blocks;
  if (part.isError !== undefined) block.is_error = part.isError;
  return block;
}
