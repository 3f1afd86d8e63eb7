import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../../src/canonical/index.js';
import { inlineMediaUrls } from '../../../src/providers/gemini/inline-media-urls.js';
import { gatewayErrorOfAsync } from '../../helpers/gateway-error-of.js';

const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/cat.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    if (req.url === '/page.html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
    if (req.url === '/big.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(5000));
    if (req.url === '/chunked.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(Buffer.alloc(800));
      return res.end(Buffer.alloc(800));
    }
    if (req.url === '/moved.png') return res.writeHead(302, { location: '/cat.png' }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

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
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'image', source: { kind: 'url', url } }] }],
    },
  ],
});
const signal = () => new AbortController().signal;

const failure = (request: CanonicalRequest, options: Parameters<typeof inlineMediaUrls>[1]) =>
  gatewayErrorOfAsync(() => inlineMediaUrls(request, options, signal()));

describe('inlineMediaUrls', () => {
  it('should download images given by URL, in user turns and tool results, and inline them as base64', async () => {
    const inlined = await inlineMediaUrls(withImage(`${base}/cat.png`), { allowPrivateNetworks: true }, signal());
    const expected = { kind: 'base64', mediaType: 'image/png', data: png.toString('base64') };
    expect(inlined.messages[0]?.content[1]).toEqual({ type: 'image', source: expected });
    const result = inlined.messages[1]?.content[0];
    expect(result?.type === 'tool-result' && result.content[0]).toEqual({ type: 'image', source: expected });
  });

  it('should refuse private network addresses unless allowed', async () => {
    const error = await failure(withImage(`${base}/cat.png`), {});
    expect(error.code).toBe('MEDIA_FETCH_FAILED');
    expect(error.status).toBe(400);
  });

  it('should refuse a file over the size limit with 413', async () => {
    const error = await failure(withImage(`${base}/big.png`), { allowPrivateNetworks: true, maxBytes: 1000 });
    expect(error.status).toBe(413);
    expect(error.message).toContain('larger than 1000 bytes');
  });

  it('should stop reading a file with no declared length once it passes the limit', async () => {
    const error = await failure(withImage(`${base}/chunked.png`), { allowPrivateNetworks: true, maxBytes: 1000 });
    expect(error.status).toBe(413);
  });

  it('should refuse what is not an image or PDF, redirects and missing files', async () => {
    expect((await failure(withImage(`${base}/page.html`), { allowPrivateNetworks: true })).message).toContain("'text/html'");
    expect((await failure(withImage(`${base}/moved.png`), { allowPrivateNetworks: true })).message).toContain('302');
    expect((await failure(withImage(`${base}/nope.png`), { allowPrivateNetworks: true })).message).toContain('404');
  });

  it('should fetch only https URLs when private networks are not allowed', async () => {
    expect((await failure(withImage('http://example.com/cat.png'), {})).message).toContain('only https://');
  });

  it('should leave base64 media untouched', async () => {
    const request: CanonicalRequest = {
      model: 'm',
      stream: false,
      messages: [{ role: 'user', content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AA==' } }] }],
    };
    expect(await inlineMediaUrls(request, {}, signal())).toEqual(request);
  });
});
