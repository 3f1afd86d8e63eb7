import { unsupportedFeatureError } from '../../canonical/index.js';
import type { AudioPart, FilePart, ImagePart, MediaSource } from '../../canonical/index.js';
import type { GeminiPart } from './upstream-schema.js';

/**
 * Media types Gemini fetches itself from a public `https://` URL (`fileData`), by file extension.
 * Anything else would have to be downloaded and inlined, which the gateway does not do.
 */
const urlMediaTypes: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  csv: 'text/csv',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mp3: 'audio/mp3',
  wav: 'audio/wav',
};

/** `data:<media type>;base64,<data>` → inline data; undefined when `url` is not a base64 data URL. */
function inlineFromDataUrl(url: string): GeminiPart | undefined {
  const match = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (!match?.[1] || match[2] === undefined) return undefined;
  return { inlineData: { mimeType: match[1], data: match[2] } };
}

function fromUrl(url: string, what: string, model: string): GeminiPart {
  if (url.startsWith('data:')) {
    const inline = inlineFromDataUrl(url);
    if (inline) return inline;
    throw unsupportedFeatureError(`${what} data URLs that are not base64`, model, {
      param: 'messages',
      reason: 'Google Gemini has no equivalent',
    });
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw unsupportedFeatureError(`the ${what} URL '${url.slice(0, 100)}' (not a valid URL)`, model, {
      param: 'messages',
      reason: 'Google Gemini has no equivalent',
    });
  }
  const extension = /\.([a-z0-9]+)$/i.exec(parsed.pathname)?.[1]?.toLowerCase();
  const mimeType = extension === undefined ? undefined : urlMediaTypes[extension];
  if (parsed.protocol !== 'https:' || mimeType === undefined) {
    throw unsupportedFeatureError(
      `${what} URLs other than public https:// links to ${Object.keys(urlMediaTypes).join('/')} files (got '${url.slice(0, 100)}'); send the ${what} as base64 data instead`,
      model,
      { param: 'messages', reason: 'Google Gemini has no equivalent' },
    );
  }
  return { fileData: { mimeType, fileUri: url } };
}

function fromSource(source: MediaSource, what: string, model: string): GeminiPart {
  switch (source.kind) {
    case 'base64':
      return inlineFromDataUrl(source.data) ?? { inlineData: { mimeType: source.mediaType, data: source.data } };
    case 'url':
      return fromUrl(source.url, what, model);
    case 'file-id':
      throw unsupportedFeatureError(`${what} given by file id ('${source.fileId}'); send it as base64 data instead`, model, {
        param: 'messages',
        reason: 'Google Gemini has no equivalent',
      });
  }
}

/**
 * An image, document or audio part → `inlineData` (base64, no `data:` prefix) or `fileData`
 * (public https URL of a type Gemini fetches). Plain-text documents become text.
 */
export function encodeGeminiMedia(part: ImagePart | FilePart | AudioPart, model: string): GeminiPart {
  switch (part.type) {
    case 'image':
      return fromSource(part.source, 'image', model);
    case 'file':
      return part.source.kind === 'text' ? { text: part.source.text } : fromSource(part.source, 'file', model);
    case 'audio':
      return { inlineData: { mimeType: part.format.includes('/') ? part.format : `audio/${part.format}`, data: part.data } };
  }
}
