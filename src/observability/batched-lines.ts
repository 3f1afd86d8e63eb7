/** Where JSON lines go: anything with `write` (pino's destination, a stream). */
export interface LineDestination {
  write(text: string): unknown;
  end?(): unknown;
}

/** How long a line may wait for others to share its write by default (ms), and how much text is written at once at most. */
export const FLUSH_MS = 10;
export const FLUSH_CHARS = 64 * 1024;

/**
 * Lines held for at most `flushMs` (default `FLUSH_MS`; or until `FLUSH_CHARS` are held), then handed to `target` as
 * one string: under load one write carries many requests' lines (a system call per line, or per
 * turn of the event loop, was most of the request log's cost), and a lone line still goes out
 * within moments. (pino's own buffered destination measures its whole pending buffer again for
 * each line it is given, which cost more than the writes it saved.) What is held when the process
 * exits is written on the way out.
 */
export class BatchedLines implements LineDestination {
  readonly #target: LineDestination;
  readonly #flushMs: number;
  readonly #lines: string[] = [];
  #held = 0;
  #timer: NodeJS.Timeout | undefined;
  #ended = false;
  readonly #flush = () => this.flush();

  constructor(target: LineDestination, flushMs = FLUSH_MS) {
    this.#target = target;
    this.#flushMs = flushMs;
    process.once('exit', this.#flush);
  }

  write(line: string): boolean {
    // Ended: the target is closed, and a line for it must not throw later from a timer.
    if (this.#ended) return false;
    this.#lines.push(line);
    this.#held += line.length;
    if (this.#held >= FLUSH_CHARS) this.flush();
    // Unref'd: held lines never keep a process alive; its exit writes them.
    else if (this.#timer === undefined) this.#timer = setTimeout(this.#flush, this.#flushMs).unref();
    return true;
  }

  /** Hands what is held to the target now. */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#lines.length === 0) return;
    this.#held = 0;
    const text = this.#lines.length === 1 ? this.#lines[0]! : this.#lines.join('');
    this.#lines.length = 0;
    this.#target.write(text);
  }

  /** Writes what is held, then ends the target (pino's destination leaves stdout open); later lines are dropped. */
  end(): void {
    if (this.#ended) return;
    this.flush();
    this.#ended = true;
    process.removeListener('exit', this.#flush);
    this.#target.end?.();
  }
}
