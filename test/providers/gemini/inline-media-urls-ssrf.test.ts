import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../../src/canonical/index.js';
import { inlineMediaUrls, isPrivateAddress, type MediaLookup } from '../../../src/providers/gemini/inline-media-urls.js';
import { gatewayErrorOfAsync } from '../../helpers/gateway-error-of.js';

const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

// A real server on loopback, counting every TCP connection that reaches it (a TLS hello sent to
// this plain-HTTP server still counts: the point is whether the gateway connected at all).
let loopback: Server;
let port: number;
let connections = 0;
const sockets = new Set<Socket>();

// A TLS server on loopback recording the SNI name of each handshake (it has no certificate: the
// handshake fails right after the name is read, which is all the test needs).
let tlsServer: TlsServer;
let tlsPort: number;
const serverNames: string[] = [];

beforeAll(async () => {
  loopback = createServer((req, res) => {
    if (req.url === '/cat.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    res.writeHead(404).end();
  });
  loopback.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => loopback.listen(0, '127.0.0.1', resolve));
  port = (loopback.address() as AddressInfo).port;

  tlsServer = createTlsServer({
    SNICallback: (name, callback) => {
      serverNames.push(name);
      callback(new Error('no certificate here'));
    },
  });
  tlsServer.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
  tlsPort = (tlsServer.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => loopback.close(() => resolve()));
  await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
});
beforeEach(() => {
  connections = 0;
});

const withImage = (url: string): CanonicalRequest => ({
  model: 'm',
  stream: false,
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image', source: { kind: 'url', url } },
      ],
    },
  ],
});
const signal = () => new AbortController().signal;
const failure = (url: string, options: Parameters<typeof inlineMediaUrls>[1] = {}) =>
  gatewayErrorOfAsync(() => inlineMediaUrls(withImage(url), options, signal()));

/** A `dns.lookup`-shaped resolver answering from a script, one answer list per call (the last repeats). */
function scriptedResolver(...answers: string[][]) {
  const calls: string[] = [];
  const lookup: MediaLookup = (hostname, _options, callback) => {
    calls.push(hostname);
    const answer = answers[Math.min(calls.length, answers.length) - 1] ?? [];
    const addresses: LookupAddress[] = answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    setImmediate(() => callback(null, addresses));
  };
  return { lookup, calls };
}

describe('inlineMediaUrls SSRF guard: IPv6 literals that carry an IPv4 address', () => {
  it.each(['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:127.0.0.1]', '[::FFFF:7F00:0001]'])(
    'should refuse the IPv4-mapped loopback literal %s without connecting',
    async (host) => {
      const error = await failure(`https://${host}:${port}/cat.png`);
      expect(connections).toBe(0);
      expect(error.code).toBe('MEDIA_FETCH_FAILED');
      expect(error.status).toBe(400);
      expect(error.message).toContain('private network address');
    },
  );

  it.each([
    ['IPv4-compatible loopback', '[::127.0.0.1]'],
    ['NAT64 of loopback', '[64:ff9b::127.0.0.1]'],
    ['NAT64 of 10.0.0.1, hex', '[64:ff9b::a00:1]'],
    ['6to4 of loopback', '[2002:7f00:1::]'],
    ['6to4 of 192.168.1.1', '[2002:c0a8:101::1]'],
    ['IPv4-mapped 169.254.169.254 (metadata)', '[::ffff:a9fe:a9fe]'],
  ])('should refuse the %s literal %s without connecting', async (_label, host) => {
    const error = await failure(`https://${host}:${port}/cat.png`);
    expect(connections).toBe(0);
    expect(error.code).toBe('MEDIA_FETCH_FAILED');
    expect(error.message).toContain('private network address');
  });

  it.each(['[::1]', '[::]', '[fe80::1]', '[febf::1]', '[fc00::1]', '[fd12:3456::1]', '[ff02::1]'])(
    'should refuse the IPv6 literal %s',
    async (host) => {
      const error = await failure(`https://${host}:${port}/cat.png`);
      expect(connections).toBe(0);
      expect(error.code).toBe('MEDIA_FETCH_FAILED');
      expect(error.message).toContain('private network address');
    },
  );

  it.each([
    '0.0.0.0',
    '10.1.2.3',
    '100.64.0.1',
    '100.127.255.255',
    '127.0.0.1',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.168.0.1',
    '198.18.0.1',
    '198.19.255.255',
    '224.0.0.1',
    '240.0.0.1',
    '255.255.255.255',
    '0x7f.1', // WHATWG URL makes this 127.0.0.1
    '2130706433',
  ])('should refuse the IPv4 literal %s', async (host) => {
    const error = await failure(`https://${host}:${port}/cat.png`);
    expect(connections).toBe(0);
    expect(error.code).toBe('MEDIA_FETCH_FAILED');
    expect(error.message).toContain('private network address');
  });

  it('should tell public addresses, plain or embedded, from private ones', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '192.0.2.1', '198.20.0.1', '223.255.255.255']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
    for (const address of ['2606:4700:4700::1111', '::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::808:808', '2002:808:808::1']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
    for (const address of [
      '::ffff:10.0.0.1',
      '::ffff:ac10:1',
      '64:ff9b::c0a8:1',
      '2002:a9fe:a9fe::',
      '::ffff:ffff:ffff',
      'fec0::1',
      'fe80::1%eth0',
      'not an ip',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
  });
});

describe('inlineMediaUrls SSRF guard: the address checked is the address connected to', () => {
  it('should never reach loopback when DNS answers a public address first and loopback afterwards (rebinding)', async () => {
    // The old code resolved once to check and let undici resolve again to connect: it checked
    // 192.0.2.10 and connected to 127.0.0.1. Now the name is resolved once, by the connection.
    const resolver = scriptedResolver(['192.0.2.10'], ['127.0.0.1']);
    const error = await failure(`https://rebind.test:${port}/cat.png`, { lookup: resolver.lookup, timeoutMs: 500 });
    expect(connections).toBe(0);
    expect(resolver.calls).toEqual(['rebind.test']);
    expect(error.code).toBe('MEDIA_FETCH_FAILED');
    expect(error.status).toBe(400);
  });

  it('should refuse a host name that resolves to loopback, without connecting', async () => {
    const resolver = scriptedResolver(['127.0.0.1']);
    const error = await failure(`https://loopback.test:${port}/cat.png`, { lookup: resolver.lookup });
    expect(connections).toBe(0);
    expect(error.code).toBe('MEDIA_FETCH_FAILED');
    expect(error.message).toContain('private network address');
  });

  it('should refuse a host name when any one of its addresses is private', async () => {
    const resolver = scriptedResolver(['192.0.2.10', '::ffff:7f00:1']);
    const error = await failure(`https://mixed.test:${port}/cat.png`, { lookup: resolver.lookup });
    expect(connections).toBe(0);
    expect(error.message).toContain('private network address');
  });

  it('should report a host name that does not resolve', async () => {
    const resolver = scriptedResolver([]);
    const error = await failure(`https://nowhere.test:${port}/cat.png`, { lookup: resolver.lookup });
    expect(error.code).toBe('MEDIA_FETCH_FAILED');
    expect(error.message).toContain('does not resolve');
  });

  it("should present the URL's host name as TLS SNI while connecting to the resolved address", async () => {
    const resolver = scriptedResolver(['127.0.0.1']);
    serverNames.length = 0;
    const error = await failure(`https://media.test:${tlsPort}/cat.png`, { lookup: resolver.lookup, allowPrivateNetworks: true });
    expect(error.code).toBe('MEDIA_FETCH_FAILED');
    expect(serverNames).toEqual(['media.test']);
  });
});

describe('inlineMediaUrls with allowPrivateNetworks', () => {
  it('should still fetch from loopback over http, by literal and by host name', async () => {
    const expected = { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: png.toString('base64') } };
    const byLiteral = await inlineMediaUrls(withImage(`http://127.0.0.1:${port}/cat.png`), { allowPrivateNetworks: true }, signal());
    expect(byLiteral.messages[0]?.content[1]).toEqual(expected);

    const resolver = scriptedResolver(['127.0.0.1']);
    const byName = await inlineMediaUrls(
      withImage(`http://media.test:${port}/cat.png`),
      { allowPrivateNetworks: true, lookup: resolver.lookup },
      signal(),
    );
    expect(byName.messages[0]?.content[1]).toEqual(expected);
    expect(resolver.calls).toEqual(['media.test']);
    expect(connections).toBeGreaterThan(0);
  });
});
