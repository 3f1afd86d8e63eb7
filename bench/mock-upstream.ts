// A fast upstream (node:http, no framework) speaking OpenAI Chat Completions, OpenAI Responses
// (`/v1/responses`) and Anthropic Messages (`/v1/messages`): JSON answers and SSE streams, each the
// same text in its own protocol. Started by run.ts on the load core. `POST /__bench/mode` sets how
// streams are sent.
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

interface StreamFrames {
  first: Buffer;
  deltas: Buffer[];
  last: Buffer;
}

/** The Chat frames of one stream for `chunks` deltas: role, deltas, finish, usage, [DONE]. */
function chatFrames(chunks: number): StreamFrames {
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
const replyText = words.join('').repeat(5);
const usage = { input_tokens: 142, output_tokens: 50 };

const responsesObject = (status: string, output: unknown[], withUsage: boolean) => ({
  id: 'resp_bench0001',
  object: 'response',
  created_at: created,
  status,
  model: UPSTREAM_MODEL,
  output,
  error: null,
  incomplete_details: null,
  instructions: null,
  metadata: {},
  parallel_tool_calls: true,
  temperature: 0.2,
  top_p: 1,
  tool_choice: 'auto',
  tools: [],
  usage: withUsage
    ? {
        input_tokens: 142,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 50,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 192,
      }
    : null,
});
const responsesMessage = (status: string, content: unknown[]) => ({
  id: 'msg_bench0001',
  type: 'message',
  status,
  role: 'assistant',
  content,
});
const outputText = (value: string) => ({ type: 'output_text', text: value, annotations: [], logprobs: [] });

const responsesReply = Buffer.from(
  JSON.stringify(responsesObject('completed', [responsesMessage('completed', [outputText(replyText)])], true)),
);

/** The Responses events of one stream: created, in_progress, item and part added, deltas, the done events, completed. */
function responsesFrames(chunks: number): StreamFrames {
  let sequence = 0;
  const event = (data: object) => frame({ ...data, sequence_number: sequence++ });
  const first = Buffer.concat([
    event({ type: 'response.created', response: responsesObject('in_progress', [], false) }),
    event({ type: 'response.in_progress', response: responsesObject('in_progress', [], false) }),
    event({ type: 'response.output_item.added', output_index: 0, item: responsesMessage('in_progress', []) }),
    event({ type: 'response.content_part.added', item_id: 'msg_bench0001', output_index: 0, content_index: 0, part: outputText('') }),
  ]);
  const streamed = Array.from({ length: chunks }, (_, index) => words[index % words.length]);
  const deltas = streamed.map((delta) =>
    event({ type: 'response.output_text.delta', item_id: 'msg_bench0001', output_index: 0, content_index: 0, delta, logprobs: [] }),
  );
  const whole = streamed.join('');
  const last = Buffer.concat([
    event({ type: 'response.output_text.done', item_id: 'msg_bench0001', output_index: 0, content_index: 0, text: whole, logprobs: [] }),
    event({ type: 'response.content_part.done', item_id: 'msg_bench0001', output_index: 0, content_index: 0, part: outputText(whole) }),
    event({ type: 'response.output_item.done', output_index: 0, item: responsesMessage('completed', [outputText(whole)]) }),
    event({
      type: 'response.completed',
      response: responsesObject('completed', [responsesMessage('completed', [outputText(whole)])], true),
    }),
  ]);
  return { first, deltas, last };
}

const messagesReply = Buffer.from(
  JSON.stringify({
    id: 'msg_bench0001',
    type: 'message',
    role: 'assistant',
    model: UPSTREAM_MODEL,
    content: [{ type: 'text', text: replyText }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { ...usage, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  }),
);

/** The Messages events of one stream: message_start, block start, deltas, block stop, message_delta, message_stop. */
function messagesFrames(chunks: number): StreamFrames {
  const event = (data: { type: string; [field: string]: unknown }) => Buffer.from(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
  const first = Buffer.concat([
    event({
      type: 'message_start',
      message: {
        id: 'msg_bench0001',
        type: 'message',
        role: 'assistant',
        model: UPSTREAM_MODEL,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 142, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    }),
    event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  ]);
  const deltas = Array.from({ length: chunks }, (_, index) =>
    event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: words[index % words.length] } }),
  );
  const last = Buffer.concat([
    event({ type: 'content_block_stop', index: 0 }),
    event({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: chunks } }),
    event({ type: 'message_stop' }),
  ]);
  return { first, deltas, last };
}

type UpstreamProtocol = 'chat' | 'responses' | 'messages';
const framesOf = (chunks: number): Record<UpstreamProtocol, StreamFrames> => ({
  chat: chatFrames(chunks),
  responses: responsesFrames(chunks),
  messages: messagesFrames(chunks),
});
let frames = framesOf(mode.chunks);
const replies: Record<UpstreamProtocol, Buffer> = { chat: reply, responses: responsesReply, messages: messagesReply };
const protocolOfUrl = (url: string | undefined): UpstreamProtocol =>
  url?.endsWith('/responses') ? 'responses' : url?.endsWith('/messages') ? 'messages' : 'chat';

const sseHeaders = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

function sendStream(res: ServerResponse, protocol: UpstreamProtocol): void {
  res.writeHead(200, sseHeaders);
  const { first, deltas, last } = frames[protocol];
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
      frames = framesOf(mode.chunks);
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
    const protocol = protocolOfUrl(req.url);
    if (stream) {
      sendStream(res, protocol);
      return;
    }
    const answer = replies[protocol];
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
    res.end(answer);
  });
});
server.keepAliveTimeout = 60_000;
server.maxRequestsPerSocket = 0;

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
