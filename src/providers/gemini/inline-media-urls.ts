import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent, request } from 'undici';
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

/** A resolver shaped like `dns.lookup` with `all: true` (`dns.lookup` itself fits). */
export type MediaLookup = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** Internal options: not part of the provider's configuration (its schema refuses unknown keys). */
export interface InlineMediaUrlsOptions extends MediaFetchOptions {
  /** @internal The resolver for host names; tests inject one. Default `dns.lookup`. */
  lookup?: MediaLookup;
}

interface ResolvedMediaFetchOptions extends Required<MediaFetchOptions> {
  lookup: MediaLookup;
}

const acceptedTypes = /^(image\/(png|jpeg|gif|webp|heic|heif)|application\/pdf)$/;

function fetchError(url: string, reason: string, status = 400): GatewayError {
  return new GatewayError({
    code: 'MEDIA_FETCH_FAILED',
    status,
    param: 'messages',
    message: `The media URL '${url.slice(0, 200)}' could not be inlined: ${reason}. Send the file as base64 data instead.`,
  });
}

/*
 * SSRF rules. Ranges are matched by Node's `net.BlockList` rather than by hand-written octet
 * arithmetic: it parses every textual form of an address (compressed, upper case, zone ids) and,
 * on Node 20, matches an IPv4 rule against the IPv4-mapped form too (`::ffff:127.0.0.1` and
 * `::ffff:7f00:1` both hit `127.0.0.0/8`; the mapped v6 ranges are added as well so this does
 * not rest on that). What BlockList does not know is the other IPv6 forms that carry an IPv4
 * address (compat `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`): `embeddedIPv4` expands
 * the address to eight groups and takes the IPv4 address out, which is then checked as IPv4.
 */
const privateIPv4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast 255.255.255.255
];
const privateIPv6: ReadonlyArray<readonly [string, number]> = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, never public)
  ['fc00::', 7], // unique-local
  ['ff00::', 8], // multicast
];
const blocked = new BlockList();
for (const [network, prefix] of privateIPv4) {
  blocked.addSubnet(network, prefix, 'ipv4');
  blocked.addSubnet(`::ffff:${network}`, 96 + prefix, 'ipv6');
}
for (const [network, prefix] of privateIPv6) blocked.addSubnet(network, prefix, 'ipv6');

/** The eight 16-bit groups of a valid IPv6 address (zone id dropped, a dotted IPv4 tail converted). */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted !== null) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** The IPv4 address an IPv6 address stands for (mapped, compat, NAT64, 6to4), if any. */
function embeddedIPv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4(g[6]!, g[7]!); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeros(0, 6)) return v4(g[6]!, g[7]!); // ::a.b.c.d, IPv4-compatible (deprecated); :: and ::1 land in 0/8
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6]!, g[7]!); // 64:ff9b::/96, NAT64
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!); // 2002::/16, 6to4
  return undefined;
}

/** Whether the gateway must not connect to `address`. Anything that is not an IP address counts as private. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedIPv4(address);
  if (v4 !== undefined && blocked.check(v4, 'ipv4')) return true;
  return blocked.check(address.replace(/%.*$/, ''), 'ipv6');
}

class PrivateAddressError extends Error {
  readonly code = 'MEDIA_PRIVATE_ADDRESS';
}

type ConnectLookup = (
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/**
 * The lookup the download's sockets connect with (undici hands `connect.lookup` to
 * `net`/`tls.connect`): it resolves once, refuses when any answer is private, and hands the
 * socket the very addresses it checked — nothing resolves the name a second time, so a DNS
 * answer that changes between check and connect (rebinding) cannot slip through. TLS still
 * verifies the URL's host name: undici sets `servername` from the URL, not from the address.
 */
function guardedLookup(resolve: MediaLookup, allowPrivateNetworks: boolean): ConnectLookup {
  return (hostname, options, callback) => {
    const { all = false, ...rest } = options;
    resolve(hostname, { ...rest, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, []);
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), []);
      if (!allowPrivateNetworks && addresses.some((entry) => isPrivateAddress(entry.address))) {
        return callback(new PrivateAddressError(`${hostname} resolves to a private network address`), []);
      }
      if (all) return callback(null, addresses);
      const [first] = addresses as [LookupAddress];
      return callback(null, first.address, first.family);
    });
  };
}

/*
 * One undici Agent per (resolver, allowPrivateNetworks, timeoutMs), created on first use and kept
 * for the process — a module-level cache, since the provider adapter's `close` does not reach this
 * step; an idle agent holds nothing open for long (undici closes idle keep-alive sockets after a
 * few seconds and unrefs them). `connect.timeout` bounds the connection: an aborted signal does not
 * stop undici while it is still connecting, so the download's timeout alone would not.
 */
const agents = new WeakMap<MediaLookup, Map<string, Agent>>();
function mediaAgent(settings: ResolvedMediaFetchOptions): Agent {
  let bySettings = agents.get(settings.lookup);
  if (bySettings === undefined) agents.set(settings.lookup, (bySettings = new Map()));
  const key = `${settings.allowPrivateNetworks}:${settings.timeoutMs}`;
  let agent = bySettings.get(key);
  if (agent === undefined) {
    const lookup = guardedLookup(settings.lookup, settings.allowPrivateNetworks);
    agent = new Agent({ connect: { lookup, timeout: settings.timeoutMs } });
    bySettings.set(key, agent);
  }
  return agent;
}

const isPrivateAddressError = (error: unknown): boolean => {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof PrivateAddressError) return true;
  }
  return false;
};
const isNotFound = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA';
};

async function download(url: string, options: ResolvedMediaFetchOptions, signal: AbortSignal) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw fetchError(url, 'it is not a valid URL');
  }
  if (parsed.protocol !== 'https:' && !(options.allowPrivateNetworks && parsed.protocol === 'http:')) {
    throw fetchError(url, 'only https:// URLs are fetched');
  }
  // `net.connect` calls no lookup for an IP literal, so a literal is checked here. (WHATWG URL
  // has already normalised it: `0x7f.1` is `127.0.0.1`, `[::ffff:127.0.0.1]` is `[::ffff:7f00:1]`.)
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivateNetworks && isIP(host) !== 0 && isPrivateAddress(host)) {
    throw fetchError(url, 'it points at a private network address');
  }
  const timeout = AbortSignal.timeout(options.timeoutMs);
  let response;
  try {
    // undici's request does not follow redirects: a redirect is a non-200 answer, refused.
    response = await request(url, {
      method: 'GET',
      signal: AbortSignal.any([signal, timeout]),
      dispatcher: mediaAgent(options),
    });
  } catch (error) {
    if (isPrivateAddressError(error)) throw fetchError(url, 'it points at a private network address');
    if (isNotFound(error)) throw fetchError(url, 'its host does not resolve');
    const timedOut = timeout.aborted || (error as { code?: unknown } | null)?.code === 'UND_ERR_CONNECT_TIMEOUT';
    throw fetchError(url, timedOut ? 'the download timed out' : 'the host could not be reached');
  }
  const mediaType =
    String(response.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase() ?? '';
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
 * size- and time-limited, images and PDFs only, no redirects, private networks refused unless
 * allowed — checked on the address the connection actually uses (see `guardedLookup`).
 */
export async function inlineMediaUrls(
  request: CanonicalRequest,
  options: InlineMediaUrlsOptions,
  signal: AbortSignal,
): Promise<CanonicalRequest> {
  const settings: ResolvedMediaFetchOptions = {
    maxBytes: options.maxBytes ?? 10 * 1024 * 1024,
    timeoutMs: options.timeoutMs ?? 10_000,
    allowPrivateNetworks: options.allowPrivateNetworks ?? false,
    lookup: options.lookup ?? dnsLookup,
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
