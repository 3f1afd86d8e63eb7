// A fast OpenAI Chat Completions upstream (node:http, no framework): JSON answers and SSE streams.
// Started by run.ts on the load core. `POST /__bench/mode` sets how streams are sent.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UPSTREAM_MODEL } from './bodies.js';

interface StreamMode {
  /** Content deltas per stream. */
  chunks: number;
  /** Pause between content deltas, ms (0: written back to back). */
  delayMs: number;
  /** Send the first delta, then hold the stream open until the client leaves. */
  hold: boolean;
}

let mode: StreamMode = { chunks: 50, delayMs: 0, hold: false };
const created = Math.floor(Date.now() / 1000);
const words = ['The ', 'change ', 'moves ', 'retries ', 'into ', 'a ', 'queue ', 'keyed ', 'by ', 'charge. '];

const reply = Buffer.from(
  JSON.stringify({
    id: 'chatcmpl-bench0001',
    object: 'chat.completion',
    created,
    model: UPSTREAM_MODEL,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: words.join('').repeat(5), refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 142, completion_tokens: 50, total_tokens: 192 },
    system_fingerprint: 'fp_bench',
  }),
);

const frame = (data: unknown) => Buffer.from(`data: ${JSON.stringify(data)}\n\n`);
const chunk = (delta: object, finishReason: string | null) =>
  frame({
    id: 'chatcmpl-bench0001',
    object: 'chat.completion.chunk',
    created,
    model: UPSTREAM_MODEL,
    system_fingerprint: 'fp_bench',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });

/** The frames of one stream for `chunks` deltas: role, deltas, finish, usage, [DONE]. */
function streamFrames(chunks: number): { first: Buffer; deltas: Buffer[]; last: Buffer } {
  const deltas = Array.from({ length: chunks }, (_, index) => chunk({ content: words[index % words.length] }, null));
  const last = Buffer.concat([
    chunk({}, 'stop'),
    frame({
      id: 'chatcmpl-bench0001',
      object: 'chat.completion.chunk',
      created,
      model: UPSTREAM_MODEL,
      choices: [],
      usage: { prompt_tokens: 142, completion_tokens: chunks, total_tokens: 142 + chunks },
    }),
    Buffer.from('data: [DONE]\n\n'),
  ]);
  return { first: chunk({ role: 'assistant', content: '', refusal: null }, null), deltas, last };
}
let frames = streamFrames(mode.chunks);

const sseHeaders = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

function sendStream(res: ServerResponse): void {
  res.writeHead(200, sseHeaders);
  const { first, deltas, last } = frames;
  res.write(first);
  if (mode.hold) {
    res.write(deltas[0] ?? last);
    return; // ends when the client goes away
  }
  if (mode.delayMs === 0) {
    for (const delta of deltas) res.write(delta);
    res.end(last);
    return;
  }
  const delay = mode.delayMs;
  let index = 0;
  const next = () => {
    if (res.destroyed) return;
    const delta = deltas[index++];
    if (delta === undefined) {
      res.end(last);
      return;
    }
    res.write(delta);
    setTimeout(next, delay);
  };
  next();
}

const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (part: Buffer) => parts.push(part));
  req.on('end', () => {
    const text = Buffer.concat(parts).toString('utf8');
    if (req.url === '/__bench/mode') {
      mode = { ...mode, ...(JSON.parse(text) as Partial<StreamMode>) };
      frames = streamFrames(mode.chunks);
      res.end('ok');
      return;
    }
    let stream = false;
    try {
      stream = (JSON.parse(text) as { stream?: unknown }).stream === true;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"bad json","type":"invalid_request_error"}}');
      return;
    }
    if (stream) {
      sendStream(res);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': reply.length });
    res.end(reply);
  });
});
server.keepAliveTimeout = 60_000;
server.maxRequestsPerSocket = 0;

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
