import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../../src/canonical/index.js';
import { silentLogger } from '../../../src/logger.js';
import { createGeminiProvider } from '../../../src/providers/gemini/index.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';
import { jsonFixture } from '../../helpers/fixtures.js';

const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
let images: Server;
let imageUrl: string;
let upstream: MockUpstream;

beforeAll(async () => {
  images = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/photo`;
  upstream = await startMockUpstream();
  upstream.reply({ json: jsonFixture('gemini', 'tool-call-response') });
});
afterAll(async () => {
  await upstream.close();
  await new Promise<void>((resolve) => images.close(() => resolve()));
});

const request = (): CanonicalRequest => ({
  model: 'gemini-2.5-flash',
  stream: false,
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image', source: { kind: 'url', url: imageUrl } },
      ],
    },
  ],
});
const context = { signal: new AbortController().signal, requestId: 'req_1', gatewayModel: 'g', logger: silentLogger };

describe('createGeminiProvider with fetchMediaUrls', () => {
  it('should refuse an image URL Gemini cannot fetch when the option is off', async () => {
    const adapter = createGeminiProvider({ apiKey: 'k', baseURL: `${upstream.url}/v1beta` });
    await expect(adapter.generate(request(), context)).rejects.toMatchObject({ status: 400, code: 'UNSUPPORTED_FEATURE' });
  });

  it('should download the image and send it inline when the option is on', async () => {
    const adapter = createGeminiProvider({
      apiKey: 'k',
      baseURL: `${upstream.url}/v1beta`,
      fetchMediaUrls: { allowPrivateNetworks: true, maxBytes: 1_000_000 },
    });
    await adapter.generate(request(), context);
    const body = upstream.requests.at(-1)?.body as { contents: Array<{ parts: Array<Record<string, unknown>> }> };
    expect(body.contents[0]?.parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: png.toString('base64') } });
  });
});
