import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback Chat Completions upstream whose answers take a while, that counts the requests it is answering at once. */
export interface PacedChatUpstream {
  /** The base URL for the `openai` provider (`…/v1`). */
  baseURL: string;
  /** Requests being answered now, and the most at once so far. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Requests received, in order of arrival: their last user message. */
  readonly received: string[];
  close(): Promise<void>;
}

export interface PacedChatOptions {
  /** Text deltas per answer. Default 4. */
  chunks?: number;
  /** Pause before each delta, ms. Default 20. */
  delayMs?: number;
  /** Input tokens reported in each answer's usage. Default 10. */
  promptTokens?: number;
  /** Streams send their first delta, then never finish. */
  hang?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startPacedChatUpstream(options: PacedChatOptions = {}): Promise<PacedChatUpstream> {
  const chunks = options.chunks ?? 4;
  const delayMs = options.delayMs ?? 20;
  const promptTokens = options.promptTokens ?? 10;
  let inFlight = 0;
  let maxInFlight = 0;
  const received: string[] = [];
  const usage = { prompt_tokens: promptTokens, completion_tokens: chunks, total_tokens: promptTokens + chunks };

  const server: Server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      void (async () => {
        const request = JSON.parse(Buffer.concat(body).toString()) as { stream?: boolean; messages: Array<{ content: unknown }> };
        received.push(String(request.messages.at(-1)?.content));
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        let ended = false;
        const end = () => {
          if (ended) return;
          ended = true;
          inFlight -= 1;
        };
        res.on('close', end);
        const base = { id: 'chatcmpl-paced', created: 1, model: 'paced' };
        if (!request.stream) {
          await sleep(delayMs * chunks);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              ...base,
              object: 'chat.completion',
              choices: [{ index: 0, message: { role: 'assistant', content: 'tok '.repeat(chunks) }, finish_reason: 'stop' }],
              usage,
            }),
          );
          end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const send = (data: unknown) =>
          res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...(data as object) })}\n\n`);
        send({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
        for (let i = 0; i < chunks; i += 1) {
          await sleep(delayMs);
          if (res.destroyed) return;
          send({ choices: [{ index: 0, delta: { content: 'tok ' }, finish_reason: null }] });
          if (options.hang) return;
        }
        send({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
        send({ choices: [], usage });
        res.end('data: [DONE]\n\n');
        end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
