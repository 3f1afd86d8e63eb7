import type {
  AssistantContentPart,
  FilePart,
  ImagePart,
  ProviderDefinedPart,
  TextPart,
  ToolResultContent,
  ToolResultPart,
  UserContentPart,
} from '../../canonical/index.js';
import type {
  MessagesContentBlock,
  MessagesDocumentBlock,
  MessagesImageBlock,
  MessagesTextBlock,
  MessagesToolResultBlock,
  MessagesToolResultContentBlock,
} from './content-schema.js';
import { pickUnknownAnswerFields, pickUnknownFields } from '../unknown-fields.js';
import { messagesExtensions } from './extensions.js';

function hasType<T extends { type: string }, K extends string>(value: T, types: readonly K[]): value is Extract<T, { type: K }> {
  return (types as readonly string[]).includes(value.type);
}

/** A block no canonical part can hold: carried verbatim, only to Anthropic providers. */
function decodeProviderDefinedBlock(block: { type: string } & Record<string, unknown>): ProviderDefinedPart {
  return { type: 'provider-defined', protocol: 'messages', kind: block.type, data: { ...block } };
}

/** Part extensions: the block's unmapped fields plus, under `source`, its source's unmapped fields (kept as an answer's are: the same blocks come back in a conversation). */
function blockExtensions(block: Record<string, unknown>, mapped: readonly string[], sourceRest?: Record<string, unknown>) {
  const rest = pickUnknownAnswerFields(block, mapped);
  return messagesExtensions(sourceRest === undefined ? rest : { ...rest, source: sourceRest });
}

function withExtensions<T extends object>(part: T, extensions: ReturnType<typeof messagesExtensions>): T {
  return extensions === undefined ? part : { ...part, extensions };
}

export function decodeMessagesTextBlock(block: MessagesTextBlock): TextPart {
  return withExtensions<TextPart>({ type: 'text', text: block.text }, blockExtensions(block, ['type', 'text']));
}

function decodeImageBlock(block: MessagesImageBlock): ImagePart | ProviderDefinedPart {
  const { source } = block;
  if (!hasType(source, ['base64', 'url', 'file'])) return decodeProviderDefinedBlock(block);
  const part: ImagePart =
    source.type === 'base64'
      ? { type: 'image', source: { kind: 'base64', mediaType: source.media_type, data: source.data } }
      : source.type === 'url'
        ? { type: 'image', source: { kind: 'url', url: source.url } }
        : { type: 'image', source: { kind: 'file-id', fileId: source.file_id } };
  const sourceRest = pickUnknownFields(source, ['type', 'media_type', 'data', 'url', 'file_id']);
  return withExtensions(part, blockExtensions(block, ['type', 'source'], sourceRest));
}

function decodeDocumentBlock(block: MessagesDocumentBlock): FilePart | ProviderDefinedPart {
  const { source } = block;
  if (!hasType(source, ['base64', 'text', 'url', 'file'])) return decodeProviderDefinedBlock(block);
  let fileSource: FilePart['source'];
  switch (source.type) {
    case 'base64':
      fileSource = { kind: 'base64', mediaType: source.media_type, data: source.data };
      break;
    case 'text':
      fileSource = { kind: 'text', mediaType: source.media_type, text: source.data };
      break;
    case 'url':
      fileSource = { kind: 'url', url: source.url };
      break;
    case 'file':
      fileSource = { kind: 'file-id', fileId: source.file_id };
      break;
  }
  const sourceRest = pickUnknownFields(source, ['type', 'media_type', 'data', 'url', 'file_id']);
  return withExtensions<FilePart>({ type: 'file', source: fileSource }, blockExtensions(block, ['type', 'source'], sourceRest));
}

/** A user-turn block other than `tool_result` (those become a canonical tool message). */
export function decodeMessagesUserBlock(block: MessagesContentBlock): UserContentPart {
  if (!hasType(block, ['text', 'image', 'document'])) return decodeProviderDefinedBlock(block);
  switch (block.type) {
    case 'text':
      return decodeMessagesTextBlock(block);
    case 'image':
      return decodeImageBlock(block);
    case 'document':
      return decodeDocumentBlock(block);
  }
}

export function decodeMessagesAssistantBlock(block: MessagesContentBlock): AssistantContentPart {
  if (!hasType(block, ['text', 'thinking', 'redacted_thinking', 'tool_use'])) return decodeProviderDefinedBlock(block);
  switch (block.type) {
    case 'text':
      return decodeMessagesTextBlock(block);
    case 'thinking':
      return withExtensions(
        { type: 'reasoning', text: block.thinking, signature: block.signature },
        blockExtensions(block, ['type', 'thinking', 'signature']),
      );
    case 'redacted_thinking':
      return withExtensions({ type: 'reasoning', text: '', redactedData: block.data }, blockExtensions(block, ['type', 'data']));
    case 'tool_use':
      return withExtensions(
        { type: 'tool-call', id: block.id, name: block.name, arguments: JSON.stringify(block.input) },
        blockExtensions(block, ['type', 'id', 'name', 'input']),
      );
  }
}

function decodeToolResultContentBlock(block: MessagesToolResultContentBlock): ToolResultContent {
  if (!hasType(block, ['text', 'image', 'document'])) {
    return { type: 'provider-defined', protocol: 'messages', kind: String(block.type), data: { ...block } };
  }
  if (block.type === 'text') return decodeMessagesTextBlock(block);
  return block.type === 'image' ? decodeImageBlock(block) : decodeDocumentBlock(block);
}

/**
 * `tool_result` → ToolResultPart. Blocks only Anthropic understands inside a result
 * (`search_result`, `tool_reference`, content-source documents, unknown types) become
 * provider-defined parts, so another protocol's route refuses them instead of dropping them.
 */
export function decodeMessagesToolResult(block: MessagesToolResultBlock): ToolResultPart {
  const wireContent = block.content ?? [];
  const blocks: MessagesToolResultContentBlock[] = typeof wireContent === 'string' ? [{ type: 'text', text: wireContent }] : wireContent;
  const content = blocks.map(decodeToolResultContentBlock);
  const rest = pickUnknownFields(block, ['type', 'tool_use_id', 'content', 'is_error']);
  const part: ToolResultPart = { type: 'tool-result', toolCallId: block.tool_use_id, content };
  if (block.is_error !== undefined) part.isError = block.is_error;
  return withExtensions(part, messagesExtensions(rest));
}
