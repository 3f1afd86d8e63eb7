import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One step of a scripted upstream answer. */
export type TimedStep =
  /** Send the 200 SSE headers now. */
  | { headers: true }
  /** Write this text (SSE frames). */
  | { write: string }
  /** Pause. */
  | { waitMs: number }
  /** Write `frame` every `everyMs` for `forMs` (an upstream's own keep-alive during a silent start). */
  | { repeat: string; everyMs: number; forMs: number }
  /** Run this (a test notes when the upstream got here). */
  | { run: () => void }
  /** Stop here and never finish the answer (a hang: before headers when nothing was sent yet). */
  | { hang: true };

export interface TimedUpstream {
  url: string;
  /** Requests received. */
  readonly requests: number;
  /** Answers whose connection was closed by the gateway before they finished. */
  readonly closedEarly: number;
  /** Resolves once `count` answers were closed early. */
  closedEarlyAtLeast(count: number): Promise<void>;
  /** The steps of the next answers, in order; the last one repeats. */
  script(...answers: TimedStep[][]): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loopback upstream that plays answers step by step in time: hangs, slow starts, drips, silences. */
export async function startTimedUpstream(): Promise<TimedUpstream> {
  let answers: TimedStep[][] = [[{ hang: true }]];
  let requests = 0;
  let closedEarly = 0;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const noteClosed = () => {
    closedEarly += 1;
    for (const waiter of waiters.filter((entry) => closedEarly >= entry.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };

  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests += 1;
      const steps = answers.length > 1 ? answers.shift()! : answers[0]!;
      let closed = false;
      res.on('close', () => {
        closed = true;
        if (!res.writableFinished) noteClosed();
      });
      void (async () => {
        for (const step of steps) {
          if (closed) return;
          if ('hang' in step) return;
          if ('headers' in step) {
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            res.flushHeaders();
          } else if ('write' in step) res.write(step.write);
          else if ('waitMs' in step) await sleep(step.waitMs);
          else if ('run' in step) step.run();
          else {
            for (let spent = 0; spent < step.forMs && !closed; spent += step.everyMs) {
              await sleep(step.everyMs);
              if (!closed) res.write(step.repeat);
            }
          }
        }
        if (!closed) res.end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    get closedEarly() {
      return closedEarly;
    },
    closedEarlyAtLeast: (count) => (closedEarly >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    script: (...scripted) => {
      answers = scripted;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** SSE frames as each protocol's upstream writes them, split where the first output begins. */
export interface UpstreamFrames {
  /** Everything before the first output (Chat: the role chunk; Messages: `message_start`, block start; Responses: created … part added). */
  opening: string;
  /** Output frames, one per text piece. */
  deltas: (text: string) => string;
  /** The frames that finish the answer. */
  closing: string;
}

const frame = (data: unknown, event?: string) => `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
const chunk = (delta: unknown, finish: string | null = null) =>
  frame({
    id: 'chatcmpl-up',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'up',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

export const chatFrames: UpstreamFrames = {
  opening: chunk({ role: 'assistant', content: '' }),
  deltas: (text) => chunk({ content: text }),
  closing:
    chunk({}, 'stop') +
    frame({
      id: 'chatcmpl-up',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'up',
      choices: [],
      usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
    }) +
    'data: [DONE]\n\n',
};

const named = (data: { type: string }) => frame(data, data.type);
export const anthropicPing = 'event: ping\ndata: {"type": "ping"}\n\n';

export const messagesFrames: UpstreamFrames = {
  opening:
    named({
      type: 'message_start',
      message: {
        id: 'msg_up',
        type: 'message',
        role: 'assistant',
        model: 'up',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 1 },
      },
    } as { type: string }) +
    named({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } as { type: string }),
  deltas: (text) => named({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } } as { type: string }),
  closing:
    named({ type: 'content_block_stop', index: 0 } as { type: string }) +
    named({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } } as {
      type: string;
    }) +
    named({ type: 'message_stop' }),
};

const responseObject = (status: string, output: unknown[], usage: unknown) => ({
  id: 'resp_up',
  object: 'response',
  created_at: 1,
  status,
  model: 'up',
  output,
  usage,
});
let sequence = 0;
const responsesEvent = (data: Record<string, unknown> & { type: string }) =>
  named({ ...data, sequence_number: sequence++ } as { type: string });

/** Responses frames; `deltas` numbers its events after the opening's (call `responsesFrames()` per answer). */
export function responsesFrames(): UpstreamFrames {
  sequence = 0;
  const item = { id: 'msg_up', type: 'message', status: 'in_progress', role: 'assistant', content: [] };
  const opening =
    responsesEvent({ type: 'response.created', response: responseObject('in_progress', [], null) }) +
    responsesEvent({ type: 'response.in_progress', response: responseObject('in_progress', [], null) }) +
    responsesEvent({ type: 'response.output_item.added', output_index: 0, item }) +
    responsesEvent({
      type: 'response.content_part.added',
      item_id: 'msg_up',
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    });
  let text = '';
  return {
    opening,
    deltas: (piece) => {
      text += piece;
      return responsesEvent({ type: 'response.output_text.delta', item_id: 'msg_up', output_index: 0, content_index: 0, delta: piece });
    },
    get closing() {
      const done = { ...item, status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
      return (
        responsesEvent({ type: 'response.output_text.done', item_id: 'msg_up', output_index: 0, content_index: 0, text }) +
        responsesEvent({ type: 'response.output_item.done', output_index: 0, item: done }) +
        responsesEvent({
          type: 'response.completed',
          response: responseObject('completed', [done], { input_tokens: 5, output_tokens: 3, total_tokens: 8 }),
        })
      );
    },
  };
}
