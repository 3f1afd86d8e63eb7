import type {
  AssistantContentPart,
  FilePart,
  ImagePart,
  MediaSource,
  TextPart,
  ToolResultContent,
  UserContentPart,
} from '../../canonical/index.js';
import { decodeResponsesExtensions } from './extensions.js';
import {
  ResponsesContentPartSchema,
  ResponsesInputAudioSchema,
  ResponsesInputFileSchema,
  ResponsesInputImageSchema,
  ResponsesInputTextSchema,
  ResponsesOutputTextSchema,
  ResponsesRefusalSchema,
  type ResponsesContentPart,
} from './schema.js';
import { createResponsesInvalidBodyError, validateResponsesWire, type WirePath } from './validate-wire.js';

type Content = string | ResponsesContentPart[];

/** `data:<type>;base64,<data>` → a base64 source; any other string → a URL source. */
function decodeUrlSource(url: string): MediaSource {
  const match = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(url);
  if (match !== null && (match[2] ?? '').split(';').includes('base64')) {
    return { kind: 'base64', mediaType: match[1] || 'application/octet-stream', data: match[3] ?? '' };
  }
  return { kind: 'url', url };
}

function decodeText(part: unknown, path: WirePath, extra: Record<string, unknown>): TextPart {
  const { type: _type, text, ...rest } = validateResponsesWire(ResponsesInputTextSchema, part, path);
  return { type: 'text', text, ...decodeResponsesExtensions({ ...extra, ...rest }) };
}

function decodeImage(part: unknown, path: WirePath): ImagePart {
  const { type: _type, image_url, file_id, detail, ...rest } = validateResponsesWire(ResponsesInputImageSchema, part, path);
  let source: MediaSource;
  if (typeof image_url === 'string') source = decodeUrlSource(image_url);
  else if (typeof file_id === 'string') source = { kind: 'file-id', fileId: file_id };
  else throw createResponsesInvalidBodyError(path, 'an input_image needs image_url or file_id');
  const extraFileId = typeof image_url === 'string' && typeof file_id === 'string' ? { file_id } : {};
  return {
    type: 'image',
    source,
    ...(detail == null ? {} : { detail }),
    ...decodeResponsesExtensions({ ...rest, ...extraFileId }),
  };
}

function decodeFile(part: unknown, path: WirePath): FilePart {
  const { type: _type, file_data, file_id, file_url, filename, ...rest } = validateResponsesWire(ResponsesInputFileSchema, part, path);
  let source: MediaSource;
  const extra: Record<string, unknown> = {};
  if (typeof file_data === 'string') {
    const decoded = decodeUrlSource(file_data);
    const pdf = filename?.toLowerCase().endsWith('.pdf') === true;
    source =
      decoded.kind === 'base64'
        ? decoded
        : { kind: 'base64', mediaType: pdf ? 'application/pdf' : 'application/octet-stream', data: file_data };
    if (typeof file_url === 'string') extra.file_url = file_url;
    if (typeof file_id === 'string') extra.file_id = file_id;
  } else if (typeof file_url === 'string') {
    source = { kind: 'url', url: file_url };
    if (typeof file_id === 'string') extra.file_id = file_id;
  } else if (typeof file_id === 'string') {
    source = { kind: 'file-id', fileId: file_id };
  } else {
    throw createResponsesInvalidBodyError(path, 'an input_file needs file_data, file_url or file_id');
  }
  return {
    type: 'file',
    source,
    ...(typeof filename === 'string' ? { filename } : {}),
    ...decodeResponsesExtensions({ ...rest, ...extra }),
  };
}

function envelope(part: unknown, path: WirePath): ResponsesContentPart {
  return validateResponsesWire(ResponsesContentPartSchema, part, path);
}

/** The input parts user turns and tool outputs share (text, image, file); undefined for any other type. */
function decodeInputPart(part: unknown, path: WirePath): TextPart | ImagePart | FilePart | undefined {
  switch (envelope(part, path).type) {
    case 'input_text':
      return decodeText(part, path, {});
    case 'input_image':
      return decodeImage(part, path);
    case 'input_file':
      return decodeFile(part, path);
    default:
      return undefined;
  }
}

/** User message content: text, images, files, audio; unknown part types travel verbatim. */
export function decodeResponsesUserContent(content: Content, path: WirePath): UserContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part, index): UserContentPart => {
    const partPath = [...path, index];
    const media = decodeInputPart(part, partPath);
    if (media !== undefined) return media;
    switch (part.type) {
      case 'input_audio': {
        const { type: _type, input_audio, ...rest } = validateResponsesWire(ResponsesInputAudioSchema, part, partPath);
        return { type: 'audio', data: input_audio.data, format: input_audio.format, ...decodeResponsesExtensions(rest) };
      }
      default:
        return { type: 'provider-defined', protocol: 'responses', kind: part.type, data: { ...part } };
    }
  });
}

/** System/developer content: text only. `extra` (e.g. the role) is kept on every part. */
export function decodeResponsesSystemContent(content: Content, path: WirePath, extra: Record<string, unknown>): TextPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content, ...decodeResponsesExtensions(extra) }];
  return content.map((part, index) => {
    const partPath = [...path, index];
    if (envelope(part, partPath).type !== 'input_text') {
      throw createResponsesInvalidBodyError([...partPath, 'type'], 'system and developer messages may only contain input_text parts');
    }
    return decodeText(part, partPath, extra);
  });
}

/** Assistant message content; the item's own fields (`id`, `status`, `phase`…) are kept on every part. */
export function decodeResponsesAssistantContent(
  content: Content,
  path: WirePath,
  itemFields: Record<string, unknown>,
): AssistantContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content, ...decodeResponsesExtensions(itemFields) }];
  return content.map((part, index): AssistantContentPart => {
    const partPath = [...path, index];
    switch (envelope(part, partPath).type) {
      case 'output_text': {
        const { type: _type, text, ...rest } = validateResponsesWire(ResponsesOutputTextSchema, part, partPath);
        return { type: 'text', text, ...decodeResponsesExtensions({ ...itemFields, ...rest }) };
      }
      case 'input_text':
        return decodeText(part, partPath, { ...itemFields, part_type: 'input_text' });
      case 'refusal': {
        const { type: _type, refusal, ...rest } = validateResponsesWire(ResponsesRefusalSchema, part, partPath);
        return { type: 'refusal', text: refusal, ...decodeResponsesExtensions({ ...itemFields, ...rest }) };
      }
      default:
        return { type: 'provider-defined', protocol: 'responses', kind: part.type, data: { ...part } };
    }
  });
}

/** `function_call_output.output`: a string, or input_text / input_image / input_file parts. */
export function decodeResponsesToolOutput(output: Content, path: WirePath): ToolResultContent[] {
  if (typeof output === 'string') return [{ type: 'text', text: output }];
  return output.map((part, index): ToolResultContent => {
    const partPath = [...path, index];
    const decoded = decodeInputPart(part, partPath);
    if (decoded !== undefined) return decoded;
    throw createResponsesInvalidBodyError([...partPath, 'type'], 'expected "input_text", "input_image" or "input_file"');
  });
}
