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
 * Probes the models nobody called lately, so the status page has figures for them too. Time is cut
 * into rounds of `intervalMs`; every `intervalMs` each instance tries to claim the round it is in,
 * and the one that gets it (once per round) asks the ledger which models had no request (real or
 * probe, from any instance) for an interval and probes each, one at a time.
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

  /**
   * A round at the middle of each round of the clock, the first at least half an interval after the
   * start (a fresh instance first lets traffic come). Every instance fires at the same moments, so
   * their timers agree on the round, with half an interval of room for a late one either way.
   */
  start(): void {
    this.#schedule(Date.now() + this.#settings.intervalMs / 2);
  }

  /** The next tick at the first middle of a round from `notBefore` on (a timeout each time, so lateness does not add up). */
  #schedule(notBefore: number): void {
    if (this.#closed) return;
    const { intervalMs } = this.#settings;
    const middle = Math.ceil((notBefore - intervalMs / 2) / intervalMs) * intervalMs + intervalMs / 2;
    this.#timer = setTimeout(
      () => {
        this.#tick();
        this.#schedule(middle + 1);
      },
      Math.max(0, middle - Date.now()),
    );
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
    // The round `now` falls in, the same on every instance: a timer firing late still claims the round it fires in.
    const roundStart = Math.floor(now / intervalMs) * intervalMs;
    if (!(await this.#lock.claimRound(db, roundStart, intervalMs))) return [];
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
    clearTimeout(this.#timer);
    await this.#running;
  }
}
