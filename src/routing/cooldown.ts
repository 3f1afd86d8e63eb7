/** When a deployment is taken out after failures, and for how long. */
export interface CooldownOptions {
  /** Failures within `windowMs` that take a deployment out. Default 3. */
  failures?: number;
  /** Default 30 000. */
  windowMs?: number;
  /** How long a deployment stays out before one trial request probes it. Default 30 000. */
  cooldownMs?: number;
  /** The longest cooldown an upstream's `retry-after` can ask for. Default 300 000. */
  maxCooldownMs?: number;
  /**
   * With Redis: how long an instance goes on what it last read of a model's deployments before it
   * reads Redis again (sooner when a cooldown it knows of ends, to claim the trial). `0` reads Redis
   * on every request. Default 1 000.
   */
  refreshMs?: number;
}

export type ResolvedCooldowns = Required<CooldownOptions>;

export const DEFAULT_COOLDOWNS: ResolvedCooldowns = {
  failures: 3,
  windowMs: 30_000,
  cooldownMs: 30_000,
  maxCooldownMs: 300_000,
  refreshMs: 1_000,
};

/** How long one caller holds a deployment's trial before another may probe it (the first never reported back). */
export const TRIAL_MS = 30_000;

/**
 * A deployment's standing for one request: absent when it is in service; `cooling` with the ms
 * left; `trial` when its cooldown ended and this request is the one that probes it.
 */
export type Standing = { readonly state: 'cooling'; readonly forMs: number } | { readonly state: 'trial' };

/** Where cooldowns are kept: this process (memory) or Redis (every instance agrees). */
export interface CooldownStore {
  /**
   * The standings of `names` that are not in service. A deployment past its cooldown is handed to
   * one caller as its trial. An answer known in this process comes at once (no promise, so no
   * deadline to watch); one read elsewhere, through a promise.
   */
  standings(names: readonly string[]): ReadonlyMap<string, Standing> | Promise<ReadonlyMap<string, Standing>>;
  /**
   * Counts a failure; `coolForMs` takes the deployment out at once for that long (a long
   * `retry-after`, refused credentials). A failed trial cools it down again. Resolves to the cooldown
   * begun, in ms, or 0 when it stays in service.
   */
  failed(name: string, coolForMs?: number): Promise<number>;
  /** A deployment that was out (or on trial) answered: it is back in service. */
  recovered(name: string): Promise<void>;
}

interface Entry {
  failures: number[];
  /** When its cooldown ends (epoch ms); undefined while in service. */
  until?: number;
  /** While its trial is out: when another caller may take it. */
  trialUntil?: number;
}

/** Cooldowns of this process only. */
export class MemoryCooldownStore implements CooldownStore {
  readonly #entries = new Map<string, Entry>();
  readonly #options: ResolvedCooldowns;
  readonly #now: () => number;

  constructor(options: ResolvedCooldowns, now: () => number = Date.now) {
    this.#options = options;
    this.#now = now;
  }

  standings(names: readonly string[]): Map<string, Standing> {
    const standings = new Map<string, Standing>();
    const now = this.#now();
    for (const name of names) {
      const entry = this.#entries.get(name);
      if (entry?.until === undefined) continue;
      if (now < entry.until) standings.set(name, { state: 'cooling', forMs: entry.until - now });
      else if (entry.trialUntil !== undefined && now < entry.trialUntil)
        standings.set(name, { state: 'cooling', forMs: entry.trialUntil - now });
      else {
        entry.trialUntil = now + TRIAL_MS;
        standings.set(name, { state: 'trial' });
      }
    }
    return standings;
  }

  async failed(name: string, coolForMs?: number): Promise<number> {
    const now = this.#now();
    let entry = this.#entries.get(name);
    if (entry === undefined) this.#entries.set(name, (entry = { failures: [] }));
    let cool = coolForMs === undefined ? 0 : Math.min(coolForMs, this.#options.maxCooldownMs);
    if (cool === 0 && entry.until !== undefined && now >= entry.until) cool = this.#options.cooldownMs; // a failed trial
    if (cool === 0) {
      entry.failures = entry.failures.filter((at) => at > now - this.#options.windowMs);
      entry.failures.push(now);
      if (entry.failures.length >= this.#options.failures) cool = this.#options.cooldownMs;
    }
    if (cool === 0) return 0;
    // A cooldown already running is never shortened.
    entry.until = Math.max(entry.until ?? 0, now + cool);
    entry.failures = [];
    delete entry.trialUntil;
    return cool;
  }

  async recovered(name: string): Promise<void> {
    this.#entries.delete(name);
  }
}
