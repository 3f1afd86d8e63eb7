import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { request } from 'undici';
import type { CanonicalMessage, CanonicalRequest, ImagePart, FilePart, ToolResultContent } from '../../canonical/index.js';
import { GatewayError } from '../../canonical/index.js';

/** Options of the opt-in step that downloads media given by URL and sends it inline (base64). */
export interface MediaFetchOptions {
  /** Largest media file accepted, in bytes. Default 10 MB. */
  maxBytes?: number;
  /** Longest wait for one download, in ms. Default 10000. */
  timeoutMs?: number;
  /**
   * Whether URLs may point at loopback, private or link-local addresses. Default `false`: the
   * gateway would otherwise fetch from its own network on a caller's behalf.
   */
  allowPrivateNetworks?: boolean;
}

const acceptedTypes = /^(image\/(png|jpeg|gif|webp|heic|heif)|application\/pdf)$/;

function fetchError(url: string, reason: string, status = 400): GatewayError {
  return new GatewayError({
    kind: 'invalid_request',
    code: 'MEDIA_FETCH_FAILED',
    status,
    param: 'messages',
    message: `The media URL '${url.slice(0, 200)}' could not be inlined: ${reason}. Send the file as base64 data instead.`,
  });
}

function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const [a = 0, b = 0] = address.split('.').map(Number);
    return a === 10 || a === 127 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  const lower = address.toLowerCase();
  return lower === '::1' || lower === '::' || lower.startsWith('fe80:') || lower.startsWith('fc') || lower.startsWith('fd') || lower.startsWith('::ffff:') && isPrivateAddress(lower.slice(7));
}

async function download(url: string, options: Required<MediaFetchOptions>, signal: AbortSignal) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw fetchError(url, 'it is not a valid URL');
  }
  if (parsed.protocol !== 'https:' && !(options.allowPrivateNetworks && parsed.protocol === 'http:')) {
    throw fetchError(url, 'only https:// URLs are fetched');
  }
  if (!options.allowPrivateNetworks) {
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((entry) => entry.address);
    if (addresses.length === 0) throw fetchError(url, 'its host does not resolve');
    if (addresses.some(isPrivateAddress)) throw fetchError(url, 'it points at a private network address');
  }
  const timeout = AbortSignal.timeout(options.timeoutMs);
  let response;
  try {
    // undici's request does not follow redirects: a redirect is a non-200 answer, refused.
    response = await request(url, { method: 'GET', signal: AbortSignal.any([signal, timeout]) });
  } catch {
    throw fetchError(url, timeout.aborted ? 'the download timed out' : 'the host could not be reached');
  }
  const mediaType = String(response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const declared = Number(response.headers['content-length'] ?? Number.NaN);
  if (response.statusCode !== 200 || !acceptedTypes.test(mediaType) || declared > options.maxBytes) {
    await response.body.dump().catch(() => undefined);
    if (response.statusCode !== 200) throw fetchError(url, `the server answered ${response.statusCode}`);
    if (!acceptedTypes.test(mediaType)) throw fetchError(url, `its type '${mediaType || 'unknown'}' is not an image or PDF`);
    throw fetchError(url, `it is larger than ${options.maxBytes} bytes`, 413);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > options.maxBytes) {
      // Leaving the loop early releases the body.
      throw fetchError(url, `it is larger than ${options.maxBytes} bytes`, 413);
    }
    chunks.push(chunk as Buffer);
  }
  return { mediaType, data: Buffer.concat(chunks).toString('base64') };
}

type MediaPart = ImagePart | FilePart;

/**
 * Downloads every image and file a request gives by URL and puts it inline as base64, for
 * providers that cannot fetch URLs themselves. Opt-in per provider (`fetchMediaUrls`): https only,
 * size- and time-limited, images and PDFs only, private networks refused unless allowed.
 */
export async function inlineMediaUrls(
  request: CanonicalRequest,
  options: MediaFetchOptions,
  signal: AbortSignal,
): Promise<CanonicalRequest> {
  const settings: Required<MediaFetchOptions> = {
    maxBytes: options.maxBytes ?? 10 * 1024 * 1024,
    timeoutMs: options.timeoutMs ?? 10_000,
    allowPrivateNetworks: options.allowPrivateNetworks ?? false,
  };
  const hasUrl = (part: { type: string }): part is MediaPart =>
    (part.type === 'image' || part.type === 'file') && (part as MediaPart).source.kind === 'url';
  const inline = async <T extends { type: string }>(part: T): Promise<T> => {
    if (!hasUrl(part) || part.source.kind !== 'url') return part;
    const { mediaType, data } = await download(part.source.url, settings, signal);
    return { ...part, source: { kind: 'base64', mediaType, data } };
  };
  const messages = await Promise.all(
    request.messages.map(async (message): Promise<CanonicalMessage> => {
      if (message.role === 'user') return { ...message, content: await Promise.all(message.content.map(inline)) };
      if (message.role === 'tool') {
        const content = await Promise.all(
          message.content.map(async (result) => ({
            ...result,
            content: await Promise.all(result.content.map((item) => inline<ToolResultContent>(item))),
          })),
        );
        return { ...message, content };
      }
      return message;
    }),
  );
  return { ...request, messages };
}
