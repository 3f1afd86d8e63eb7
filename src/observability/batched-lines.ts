/** Where JSON lines go: anything with `write` (pino's destination, a stream). */
export interface LineDestination {
  write(text: string): unknown;
  end?(): unknown;
}

/**
 * Lines written during one turn of the event loop, handed to `target` as one string at its end:
 * under load one write carries many requests' lines, while a lone line still goes out at once.
 * (pino's own buffered destination measures its whole pending buffer again for each line it is
 * given, which cost more than the writes it saved.) What is held when the process exits is
 * written on the way out.
 */
export class BatchedLines implements LineDestination {
  readonly #target: LineDestination;
  readonly #lines: string[] = [];
  #scheduled = false;
  #ended = false;
  readonly #flush = () => this.flush();

  constructor(target: LineDestination) {
    this.#target = target;
    process.once('exit', this.#flush);
  }

  write(line: string): boolean {
    // Ended: the target is closed, and a line for it must not throw later from a timer.
    if (this.#ended) return false;
    this.#lines.push(line);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#flush);
    }
    return true;
  }

  /** Hands what is held to the target now. */
  flush(): void {
    this.#scheduled = false;
    if (this.#lines.length === 0) return;
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
