import { queryModelsActiveSince } from '../usage/model-health-queries.js';
import type { ProbeLock } from './probe-lock.js';
import type { StatusSource } from './status-source.js';

export interface ResolvedProbeOptions {
  /** How often a round runs, and how long a model must be without traffic to be probed. */
  intervalMs: number;
  maxOutputTokens: number;
  timeoutMs: number;
}

/**
 * Probes the models nobody called lately, so the status page has figures for them too. Every
 * `intervalMs` each instance tries the lock; the one that gets it asks the ledger which models had
 * no request (real or probe, from any instance) for an interval and probes each, one at a time.
 */
export class ProbeScheduler {
  readonly #source: StatusSource;
  readonly #lock: ProbeLock;
  readonly #settings: ResolvedProbeOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #closed = false;

  constructor(source: StatusSource, lock: ProbeLock, settings: ResolvedProbeOptions) {
    this.#source = source;
    this.#lock = lock;
    this.#settings = settings;
  }

  /** A round every interval, the first one interval after the start: a fresh instance first lets traffic come. */
  start(): void {
    this.#timer = setInterval(() => this.#tick(), this.#settings.intervalMs);
    this.#timer.unref();
  }

  #tick(): void {
    if (this.#closed || this.#running !== undefined) return;
    this.#running = this.round()
      .then(() => undefined)
      .catch((error: unknown) => this.#source.logger.warn({ error }, 'switchyard: the status probe round failed'))
      .finally(() => (this.#running = undefined));
  }

  /** One round: take the lock, find the idle models, probe them. Returns the models probed. */
  async round(now = Date.now()): Promise<string[]> {
    const db = await this.#source.database();
    if (db === undefined) return [];
    const { intervalMs, maxOutputTokens, timeoutMs } = this.#settings;
    // A little shorter than the interval, so the next round (on whichever instance) finds it free.
    if (!(await this.#lock.take(db, Math.max(1, Math.floor(intervalMs * 0.9))))) return [];
    const active = await queryModelsActiveSince(db, this.#source.models, now - intervalMs);
    const idle = this.#source.models.filter((model) => !active.has(model));
    for (const model of idle) {
      if (this.#closed) break;
      const outcome = await this.#source.probe(model, maxOutputTokens, timeoutMs);
      if (!outcome.ok) this.#source.logger.warn({ model, code: outcome.errorCode }, 'switchyard: the status probe of a model failed');
    }
    return idle;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#running;
  }
}
