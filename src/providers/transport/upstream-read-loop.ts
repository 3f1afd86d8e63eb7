import type { UpstreamSse } from './upstream.js';
import type { SseMessage } from '../../sse/format-sse.js';

/** What one upstream read gave: a batch to hand over (or none yet), and whether it ended the answer. */
export interface ReadStep<B> {
  batch: B | undefined;
  /** `finish`: the answer is complete (its connection is kept); `error`: it failed (closed). */
  ended?: 'finish' | 'error';
}

/**
 * The read loop every built-in adapter's stream shares, translated or passed through: the call is
 * made on the first read; each upstream read goes through `take` until one gives a batch; after a
 * `finish` the answer is marked complete, so the rest of its body is drained and the connection
 * reused; after an `error` (or an early stop) the connection is closed. Nothing is read after either.
 */
export class UpstreamReadLoop<B> {
  readonly #open: () => Promise<UpstreamSse>;
  readonly #take: (messages: readonly SseMessage[]) => ReadStep<B>;
  readonly #owed: () => B | undefined;
  #answer: UpstreamSse | undefined;
  #done = false;

  /** `take` turns an upstream read into a batch; `owed` is what is due when the upstream closes the stream. */
  constructor(open: () => Promise<UpstreamSse>, take: (messages: readonly SseMessage[]) => ReadStep<B>, owed: () => B | undefined) {
    this.#open = open;
    this.#take = take;
    this.#owed = owed;
  }

  async next(): Promise<B | undefined> {
    if (this.#done) return undefined;
    const answer = (this.#answer ??= await this.#open());
    for (;;) {
      const messages = await answer.nextBatch();
      if (messages === undefined) {
        this.#done = true;
        return this.#owed();
      }
      const step = this.#take(messages);
      if (step.ended !== undefined) {
        if (step.ended === 'finish') answer.complete();
        await this.stop();
        return step.batch;
      }
      if (step.batch !== undefined) return step.batch;
    }
  }

  async stop(): Promise<void> {
    this.#done = true;
    await this.#answer?.return();
  }
}
