import { insertLedgerRows, insertLedgerRowsJson } from '../storage/insert-ledger-rows.js';
import type { Database } from '../storage/open-database.js';
import type { Outbox } from '../storage/outbox.js';
import type { UsageLedgerRow as LedgerRow } from '../storage/schema.js';

export interface LedgerWriterOptions {
  /** The database to write to; undefined while it is not open (rows wait in the outbox). */
  db: () => Database | undefined;
  outbox: Outbox;
  /** Rows per database insert. Default 500. */
  batchSize?: number;
  /** How long rows gather before a write. Default 200 ms. */
  intervalMs?: number;
  /** Longest wait between attempts while the database fails. Default 30 s. */
  maxBackoffMs?: number;
  /**
   * How long finished rows gather in memory before one commit to the outbox (or the database):
   * what a crash can lose. Default 50 ms — one commit per row costs more than the row, and a
   * commit costs more than its instructions: it brings SQLite's code and pages into the core's
   * cache, and the requests after it miss theirs. Under load beside the passthrough, the gateway with
   * the ledger took (medians of 5 rounds, one run) 1.57× the passthrough's CPU a request at 10 ms,
   * 1.47× at 25 ms, 1.43× at 50 ms (docs/performance.md, "The ledger's commit window").
   */
  commitEveryMs?: number;
  /**
   * While the database answers and nothing waits in the outbox, rows go to it directly; a write
   * not answered within this many ms puts its rows in the outbox too (the later of the two inserts
   * is ignored). Default 100.
   */
  spillAfterMs?: number;
  onError?: (error: unknown, context: 'outbox' | 'database') => void;
  /**
   * When the database is a local SQLite file: writes rows straight into it (as durable as the
   * outbox, without the second copy); undefined until it is open, when rows go to the outbox.
   */
  direct?: () => ((rows: readonly LedgerRow[]) => number) | undefined;
}

/** What the writer has done since it started, for metrics. */
export interface LedgerCounters {
  /** Rows inserted into the database (a row already there counts once, when first written). */
  written: number;
  /** Rows in the outbox or about to enter it. */
  waiting: number;
  /** Database writes that failed (their rows stayed in the outbox and were retried). */
  failedWrites: number;
}

/** Direct writes in flight at once; past it, rows go through the outbox. */
const MAX_DIRECT_WRITES = 4;

/**
 * Moves ledger rows off the request path: `enqueue` only buffers; every `commitEveryMs` the buffer
 * goes in one write to the database while it answers promptly (straight into a local SQLite file,
 * synchronously), and otherwise is committed to the durable outbox, whose batches go to the
 * database once it is back. A row leaves the outbox only after the database took it; inserts
 * ignore a row whose (request id, attempt) is already there, so a crash between the two, or a slow
 * direct write that also spilled to the outbox, never writes one twice.
 */
export class LedgerWriter {
  readonly #db: () => Database | undefined;
  readonly #outbox: Outbox;
  readonly #batchSize: number;
  readonly #intervalMs: number;
  readonly #maxBackoffMs: number;
  readonly #commitEveryMs: number;
  readonly #onError: NonNullable<LedgerWriterOptions['onError']>;
  readonly #direct: LedgerWriterOptions['direct'];
  readonly #spillAfterMs: number;
  /** Direct writes out, each with what spills its rows to the outbox and when it must at the latest. */
  readonly #directWrites = new Map<Promise<void>, { spill: () => void; spillAt: number }>();
  #rowsInFlight = 0;
  #buffer: LedgerRow[] = [];
  /** When the buffer's first row arrived (performance.now()). */
  #bufferedSince = 0;
  #bufferScheduled = false;
  #timer: NodeJS.Timeout | undefined;
  #draining: Promise<void> | undefined;
  #backoffMs = 0;
  #inOutbox: number;
  #written = 0;
  #failedWrites = 0;
  #closed = false;

  constructor(options: LedgerWriterOptions) {
    this.#db = options.db;
    this.#outbox = options.outbox;
    this.#batchSize = options.batchSize ?? 500;
    this.#intervalMs = options.intervalMs ?? 200;
    this.#maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.#commitEveryMs = options.commitEveryMs ?? 50;
    this.#onError = options.onError ?? (() => undefined);
    this.#direct = options.direct;
    this.#spillAfterMs = options.spillAfterMs ?? 100;
    // Rows left by a previous run (the database was away, or the process stopped) go first.
    this.#inOutbox = this.#outbox.size;
    if (this.#inOutbox > 0) this.#schedule(0);
  }

  /**
   * Buffers `row` for the next commit. `answeredAt` (epoch milliseconds): when its request was
   * answered, if that was before now; the window is counted from it, so a row handed over late
   * (the "record" stage takes a turn's requests together) is still committed within
   * `commitEveryMs` of its answer.
   */
  enqueue(row: LedgerRow, answeredAt?: number): void {
    const buffer = this.#buffer;
    buffer.push(row);
    const now = performance.now();
    if (buffer.length === 1) {
      const late = answeredAt === undefined ? 0 : Date.now() - answeredAt;
      this.#bufferedSince = late > 0 ? now - late : now;
    }
    // A saturated process runs its timers late (hundreds of ms under load), but then rows keep
    // arriving: the row that finds the buffer due commits it, so the bound holds under load too.
    const due = this.#bufferedSince + this.#commitEveryMs - now;
    if (due <= 0) {
      this.#commitBuffer();
      return;
    }
    if (this.#bufferScheduled) return;
    this.#bufferScheduled = true;
    setTimeout(this.#commitOnTime, due).unref();
  }

  readonly #commitOnTime = () => {
    this.#bufferScheduled = false;
    this.#commitBuffer();
  };

  get counters(): LedgerCounters {
    return { written: this.#written, waiting: this.#inOutbox + this.#buffer.length + this.#rowsInFlight, failedWrites: this.#failedWrites };
  }

  /** Commits the buffer: to the database when it is healthy, else to the outbox. If the outbox itself fails (a full disk), rows stay buffered and are retried. */
  #commitBuffer(): void {
    if (this.#directWrites.size > 0) this.#spillOverdue();
    if (this.#buffer.length === 0) return;
    if (this.#closed) {
      this.#onError(new Error(`${this.#buffer.length} usage rows arrived after the ledger was closed and are not kept`), 'outbox');
      this.#buffer = [];
      return;
    }
    const rows = this.#buffer;
    this.#buffer = [];
    const direct = this.#direct?.();
    if (direct !== undefined) {
      try {
        this.#written += direct(rows);
        return;
      } catch (error) {
        // The file is busy or failing: the outbox takes the rows instead.
        this.#onError(error, 'database');
      }
    }
    const database = this.#db();
    const healthy = database !== undefined && this.#inOutbox === 0 && this.#backoffMs === 0 && this.#draining === undefined;
    if (healthy && this.#directWrites.size < MAX_DIRECT_WRITES) this.#writeDirectly(database, rows);
    else this.#toOutbox(rows);
  }

  /** Spills the direct writes out longer than `spillAfterMs`: their timers may run late under load. */
  #spillOverdue(): void {
    const now = performance.now();
    for (const write of this.#directWrites.values()) if (now >= write.spillAt) write.spill();
  }

  /** One insert straight into the database; its rows go to the outbox if it fails or is slow. */
  #writeDirectly(database: Database, rows: LedgerRow[]): void {
    let spilled = false;
    const spill = () => {
      if (spilled) return;
      spilled = true;
      this.#toOutbox(rows);
    };
    const spillAt = performance.now() + this.#spillAfterMs;
    const timer = setTimeout(spill, this.#spillAfterMs);
    this.#rowsInFlight += rows.length;
    const write = insertLedgerRows(database, rows)
      .then(
        (inserted) => {
          this.#written += inserted;
        },
        (error: unknown) => {
          this.#failedWrites += 1;
          this.#onError(error, 'database');
          spill();
        },
      )
      .finally(() => {
        clearTimeout(timer);
        this.#rowsInFlight -= rows.length;
        this.#directWrites.delete(write);
      });
    this.#directWrites.set(write, { spill, spillAt });
  }

  /** Commits rows to the outbox; if that fails (a full disk), they go back to the buffer for the next try. */
  #toOutbox(rows: LedgerRow[]): void {
    try {
      this.#outbox.append(rows);
    } catch (error) {
      this.#onError(error, 'outbox');
      this.#buffer = rows.concat(this.#buffer);
      this.#schedule(this.#intervalMs);
      return;
    }
    this.#inOutbox += rows.length;
    this.#schedule(this.#backoffMs > 0 ? this.#backoffMs : this.#intervalMs);
  }

  #schedule(delayMs: number): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#drain();
    }, delayMs);
    this.#timer.unref();
  }

  /** Writes outbox batches to the database until it is empty or a write fails. */
  #drain(): Promise<void> {
    this.#draining ??= this.#drainOnce().finally(() => {
      this.#draining = undefined;
    });
    return this.#draining;
  }

  async #drainOnce(): Promise<void> {
    for (;;) {
      const entries = this.#outbox.peek(this.#batchSize);
      const last = entries.at(-1);
      if (last === undefined) {
        this.#inOutbox = 0;
        return;
      }
      try {
        const database = this.#db();
        if (database === undefined) throw new Error('the database is not open yet');
        // Awaited first: `this.#written += await …` would read the counter before the await and
        // drop what a direct write added meanwhile.
        const inserted = await insertLedgerRowsJson(database, `[${entries.map((entry) => entry.json).join(',')}]`);
        this.#written += inserted;
      } catch (error) {
        this.#failedWrites += 1;
        this.#backoffMs = Math.min(this.#maxBackoffMs, Math.max(this.#intervalMs, this.#backoffMs * 2));
        this.#onError(error, 'database');
        this.#schedule(this.#backoffMs);
        return;
      }
      this.#backoffMs = 0;
      this.#outbox.removeThrough(last.seq);
      this.#inOutbox = Math.max(0, this.#inOutbox - entries.length);
    }
  }

  /**
   * Commits what is buffered and writes what it can: resolves once the outbox is empty, or the
   * database failed (the rows stay in the outbox for the next start).
   */
  async flush(): Promise<void> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    this.#commitBuffer();
    await this.#draining;
    // A direct write that fails puts its rows in the outbox, which the drain below then takes.
    await Promise.all(this.#directWrites.keys());
    await this.#drain();
  }

  /** Flushes, then stops; the outbox file stays, holding whatever could not be written. */
  async close(): Promise<void> {
    await this.flush();
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#outbox.close();
  }
}
