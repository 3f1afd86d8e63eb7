import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What a fault upstream does with one request. It speaks OpenAI Chat on `/v1/chat/completions`
 * and Anthropic Messages on `/v1/messages`, each fault in that protocol's own shape.
 */
export type Fault =
  /** A normal answer (streamed when asked), saying `text`. */
  | { kind: 'ok'; text?: string; delayMs?: number }
  /** An error answer in the protocol's error body, with a `retry-after` header when given. */
  | { kind: 'status'; status: number; retryAfter?: string; delayMs?: number }
  /** The request is read, then the connection is destroyed before any header. */
  | { kind: 'reset' }
  /** A 200 stream whose first event is an error (overloaded), before any output. */
  | { kind: 'error-frame' }
  /** A 200 stream that sends some output, then the connection is destroyed. */
  | { kind: 'reset-after-output' }
  /** A 400 saying the prompt does not fit the context window. */
  | { kind: 'context-overflow' };

export interface FaultCall {
  path: string;
  /** The `model` the gateway sent. */
  model: string;
  stream: boolean;
  /** Epoch ms when the request arrived. */
  at: number;
}

export interface FaultUpstream {
  /** `http://127.0.0.1:<port>`: Anthropic providers' base URL (OpenAI's is `url + '/v1'`). */
  url: string;
  calls: FaultCall[];
  /** Connections the gateway holds open to it now (keep-alive ones included). */
  openConnections(): number;
  /** The faults of the next requests, in order; the last one repeats. Default: `ok`. */
  script(...faults: Fault[]): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sse = (event: string | undefined, data: unknown) =>
  `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;

function chatAnswer(model: string, text: string, stream: boolean): string {
  if (!stream) {
    return JSON.stringify({
      id: 'chatcmpl-fault',
      object: 'chat.completion',
      created: 1,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
    });
  }
  const chunk = (delta: object, finish: string | null) => ({
    id: 'chatcmpl-fault',
    object: 'chat.completion.chunk',
    created: 1,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  return (
    sse(undefined, chunk({ role: 'assistant', content: '' }, null)) +
    sse(undefined, chunk({ content: text }, null)) +
    sse(undefined, chunk({}, 'stop')) +
    sse(undefined, {
      id: 'chatcmpl-fault',
      object: 'chat.completion.chunk',
      created: 1,
      model,
      choices: [],
      usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
    }) +
    'data: [DONE]\n\n'
  );
}

function messagesStart(model: string): string {
  return (
    sse('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_fault',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 11, output_tokens: 1 },
      },
    }) + sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })
  );
}

function messagesAnswer(model: string, text: string, stream: boolean): string {
  if (!stream) {
    return JSON.stringify({
      id: 'msg_fault',
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 11, output_tokens: 3 },
    });
  }
  return (
    messagesStart(model) +
    sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }) +
    sse('content_block_stop', { type: 'content_block_stop', index: 0 }) +
    sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } }) +
    sse('message_stop', { type: 'message_stop' })
  );
}

function errorBody(messages: boolean, status: number, message: string): string {
  if (messages) {
    const type =
      status === 429
        ? 'rate_limit_error'
        : status === 529 || status === 503
          ? 'overloaded_error'
          : status >= 500
            ? 'api_error'
            : 'invalid_request_error';
    return JSON.stringify({ type: 'error', error: { type, message } });
  }
  const type = status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return JSON.stringify({
    error: { message, type, param: null, code: status === 400 && message.includes('context') ? 'context_length_exceeded' : null },
  });
}

async function answer(fault: Fault, req: IncomingMessage, res: ServerResponse, body: { model?: string; stream?: boolean }): Promise<void> {
  const messages = req.url?.startsWith('/v1/messages') === true;
  const model = body.model ?? 'unknown';
  const stream = body.stream === true;
  const streamHead = () => res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  switch (fault.kind) {
    case 'ok': {
      if (fault.delayMs !== undefined) await sleep(fault.delayMs);
      const text = fault.text ?? 'Hello from the upstream';
      if (stream) streamHead();
      else res.writeHead(200, { 'content-type': 'application/json' });
      res.end(messages ? messagesAnswer(model, text, stream) : chatAnswer(model, text, stream));
      return;
    }
    case 'status': {
      if (fault.delayMs !== undefined) await sleep(fault.delayMs);
      res.writeHead(fault.status, {
        'content-type': 'application/json',
        ...(fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter }),
      });
      res.end(errorBody(messages, fault.status, `Injected fault: HTTP ${fault.status}`));
      return;
    }
    case 'context-overflow': {
      const message = messages
        ? 'prompt is too long: 250000 tokens > 200000 maximum'
        : "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.";
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(errorBody(messages, 400, message));
      return;
    }
    case 'reset':
      req.socket.destroy();
      return;
    case 'error-frame':
      streamHead();
      res.end(
        messages
          ? sse('message_start', {
              type: 'message_start',
              message: {
                id: 'msg_fault',
                type: 'message',
                role: 'assistant',
                model,
                content: [],
                stop_reason: null,
                stop_sequence: null,
                usage: { input_tokens: 11, output_tokens: 1 },
              },
            }) +
              sse('error', { type: 'error', error: { type: 'overloaded_error', message: 'Injected fault: overloaded inside the stream' } })
          : sse(undefined, { error: { message: 'Injected fault: server error inside the stream', type: 'server_error', code: null } }),
      );
      return;
    case 'reset-after-output': {
      streamHead();
      const output = messages
        ? messagesStart(model) +
          sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Partial answer' } })
        : sse(undefined, {
            id: 'chatcmpl-fault',
            object: 'chat.completion.chunk',
            created: 1,
            model,
            choices: [{ index: 0, delta: { role: 'assistant', content: 'Partial answer' }, finish_reason: null }],
          });
      res.write(output);
      await sleep(30);
      req.socket.destroy();
      return;
    }
  }
}

/** A loopback upstream that fails as scripted: 5xx bursts, 429 with retry-after, resets, errors inside a 200 stream. */
export async function startFaultUpstream(): Promise<FaultUpstream> {
  let faults: Fault[] = [{ kind: 'ok' }];
  let next = 0;
  const sockets = new Set<Socket>();
  const upstream: FaultUpstream = {
    url: '',
    calls: [],
    script: (...script) => {
      faults = script.length === 0 ? [{ kind: 'ok' }] : script;
      next = 0;
    },
    openConnections: () => sockets.size,
    close: () => Promise.resolve(),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: { model?: string; stream?: boolean } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        // not JSON: answered as if empty
      }
      upstream.calls.push({ path: req.url ?? '', model: body.model ?? '', stream: body.stream === true, at: Date.now() });
      const fault = faults[Math.min(next, faults.length - 1)]!;
      next += 1;
      void answer(fault, req, res, body).catch(() => req.socket.destroy());
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  upstream.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return upstream;
}

/** A loopback address nothing listens at: connecting to it is refused. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
