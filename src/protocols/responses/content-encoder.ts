import { unsupportedFeatureError } from '../../canonical/index.js';
import type { FilePart, ImagePart, ProviderDefinedPart, ToolResultPart, UserContentPart } from '../../canonical/index.js';
import { readResponsesExtensions } from './extensions.js';

/** One wire content part or item, as sent upstream. */
export type ResponsesWireObject = Record<string, unknown>;

const dataUrl = (mediaType: string, data: string) => `data:${mediaType};base64,${data}`;

function encodeImage(part: ImagePart): ResponsesWireObject {
  const { source } = part;
  const location =
    source.kind === 'url'
      ? { image_url: source.url }
      : source.kind === 'base64'
        ? { image_url: dataUrl(source.mediaType, source.data) }
        : { file_id: source.fileId };
  return { type: 'input_image', ...location, detail: part.detail ?? 'auto', ...readResponsesExtensions(part) };
}

function defaultFilename(mediaType: string): string {
  if (mediaType === 'application/pdf') return 'document.pdf';
  if (mediaType === 'text/plain') return 'document.txt';
  return 'file';
}

/** A document; plain-text documents (Anthropic `text` sources) become `input_text`, which OpenAI reads as is. */
function encodeFile(part: FilePart): ResponsesWireObject {
  const { source } = part;
  const extensions = readResponsesExtensions(part);
  if (source.kind === 'text') return { type: 'input_text', text: source.text, ...extensions };
  const filename = part.filename === undefined ? {} : { filename: part.filename };
  switch (source.kind) {
    case 'base64':
      return {
        type: 'input_file',
        file_data: dataUrl(source.mediaType, source.data),
        filename: part.filename ?? defaultFilename(source.mediaType),
        ...extensions,
      };
    case 'url':
      return { type: 'input_file', file_url: source.url, ...filename, ...extensions };
    case 'file-id':
      return { type: 'input_file', file_id: source.fileId, ...filename, ...extensions };
  }
}

/** A Responses part/item carried verbatim; another protocol's is a 400. */
export function encodeResponsesProviderDefined(part: ProviderDefinedPart, model: string): ResponsesWireObject {
  if (part.protocol !== 'responses') {
    throw unsupportedFeatureError(`'${part.kind}' content (it belongs to the ${part.protocol} protocol)`, model, {
      param: 'input',
      reason: 'the OpenAI Responses API has no equivalent',
    });
  }
  return { ...part.data, type: part.kind };
}

/** A user content part → `input_text` / `input_image` / `input_file` / `input_audio`. */
export function encodeResponsesUserPart(part: UserContentPart, model: string): ResponsesWireObject {
  switch (part.type) {
    case 'text':
      return { type: 'input_text', text: part.text, ...readResponsesExtensions(part) };
    case 'image':
      return encodeImage(part);
    case 'file':
      return encodeFile(part);
    case 'audio':
      return { type: 'input_audio', input_audio: { data: part.data, format: part.format }, ...readResponsesExtensions(part) };
    case 'provider-defined':
      return encodeResponsesProviderDefined(part, model);
  }
}

/**
 * A tool result's `output`: a string when it is all text (the widest-supported form; parts
 * joined by newlines), else `input_text` / `input_image` / `input_file` parts. Responses has no
 * error flag, so an error result says so in its text.
 */
export function encodeResponsesToolOutput(result: ToolResultPart, model: string): string | ResponsesWireObject[] {
  const allText = result.content.every((part) => part.type === 'text');
  const errorPrefix = result.isError === true ? 'Error: ' : '';
  if (allText) {
    return errorPrefix + result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  }
  const parts = result.content.map((part): ResponsesWireObject => {
    switch (part.type) {
      case 'text':
        return { type: 'input_text', text: part.text, ...readResponsesExtensions(part) };
      case 'image':
        return encodeImage(part);
      case 'file':
        return encodeFile(part);
      case 'provider-defined':
        return encodeResponsesProviderDefined(part, model);
    }
  });
  return errorPrefix === '' ? parts : [{ type: 'input_text', text: 'Error:' }, ...parts];
}
