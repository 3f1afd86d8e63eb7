import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the mock upstream received. */
export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  /** Names and values as they came, repeats included (`headers` keeps one of each). */
  rawHeaders: string[];
  body: unknown;
}

/** How the mock upstream answers one request. */
export type MockReply =
  | { status?: number; headers?: Record<string, string>; json: unknown }
  | {
      status?: number;
      headers?: Record<string, string>;
      /** Raw SSE text (or any text body) to send. */
      sse: string;
      /** Split the bytes into pieces of this size (1 splits inside multi-byte characters). Default: one write. */
      chunkBytes?: number;
      /** Pause between pieces, ms. */
      delayMs?: number;
    }
  /** Send headers and part of a stream, then never finish (for abort tests). */
  | { hang: true; sse?: string };

export interface MockUpstream {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  /** Answers the server saw closed before they were finished (aborts). */
  closedConnections: number;
  /** TCP connections clients opened (keep-alive reuse keeps this low). */
  openedConnections: number;
  /** The reply for the next requests, in order; the last one repeats. */
  reply(...replies: Array<MockReply | ((request: RecordedRequest) => MockReply)>): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loopback HTTP server that plays an upstream provider: records requests, answers as scripted. */
export async function startMockUpstream(): Promise<MockUpstream> {
  let script: Array<MockReply | ((request: RecordedRequest) => MockReply)> = [{ json: {} }];
  const upstream: MockUpstream = {
    url: '',
    requests: [],
    closedConnections: 0,
    openedConnections: 0,
    reply: (...replies) => {
      script = replies;
    },
    close: () => Promise.resolve(),
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        // keep the raw text
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body,
      };
      upstream.requests.push(recorded);
      const next = script.length > 1 ? script.shift()! : script[0]!;
      const reply = typeof next === 'function' ? next(recorded) : next;
      res.on('close', () => {
        if (!res.writableFinished) upstream.closedConnections += 1;
      });

      if ('hang' in reply) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        if (reply.sse) res.write(reply.sse);
        return;
      }
      if ('json' in reply) {
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(reply.json));
        return;
      }
      res.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream', ...reply.headers });
      const bytes = Buffer.from(reply.sse, 'utf8');
      const size = reply.chunkBytes ?? bytes.length;
      for (let at = 0; at < bytes.length; at += size) {
        if (res.destroyed) return;
        res.write(bytes.subarray(at, at + size));
        if (reply.delayMs) await sleep(reply.delayMs);
      }
      res.end();
    });
  });

  server.on('connection', () => (upstream.openedConnections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  upstream.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return upstream;
}

/** SSE text from a list of `{event?, data}` frames (data objects are JSON-encoded). */
export function sseText(frames: Array<{ event?: string; data: unknown }>): string {
  return frames
    .map(
      ({ event, data }) =>
        `${event === undefined ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
    )
    .join('');
}
