import { appendAuditRow } from '../storage/admin-audit.js';
import { readsOf } from '../storage/reads-of.js';
import type { StorageDb } from '../storage/schema.js';
import { DEFAULT_ABNORMAL_SPEND, findAbnormalSpend, type AbnormalSpendRule } from './abnormal-spend.js';
import type { Recorder } from './record-stage.js';
import { clearFlags, flagKey, flagState, keyOwnerOf, pauseKey } from './unusual-spend-flags.js';

/** The `unusualSpend` option: a key whose last hour is 5× its trailing day's hourly average and over $1 is flagged. */
export interface UnusualSpendOptions {
  /** Pause a flagged key: it is refused (403 `KEY_PAUSED`) until an admin lifts the pause. Default false. */
  pause?: boolean;
  /** How often the keys that spent are checked, in ms. Default 60 000. */
  checkIntervalMs?: number;
}

/** A key just flagged: what its warn line says. */
export interface UnusualSpendFlag {
  keyId: string;
  keyName: string;
  accountId: string | undefined;
  accountEmail: string | undefined;
  lastHourNanoUsd: number;
  hourlyAverageNanoUsd: number;
  /** Whether it was paused for it. */
  paused: boolean;
}

/** What the watch counted (the metrics read it when scraped). */
export interface UnusualSpendCounts {
  /** Checks run. */
  checks: number;
  /** Keys this instance flagged (each flag is counted by one instance only). */
  flags: number;
  /** Keys this instance paused. */
  pauses: number;
  /** Keys flagged now, as the database said at the last check. */
  flaggedKeys: number;
  /** Keys paused now (not revoked), as the database said at the last check. */
  pausedKeys: number;
}

export interface UnusualSpendWatchOptions {
  /** The database, once open (a check while it is not is skipped). */
  db: () => StorageDb | undefined;
  options: UnusualSpendOptions;
  rule?: AbnormalSpendRule;
  /** Told once per flag, on the instance that flagged it: the warn line. */
  onFlagged: (flag: UnusualSpendFlag) => void;
  /** A key was paused here: every instance must drop it from its key cache (the revocation channel). */
  onPaused: (keyId: string) => Promise<void>;
  onError: (error: unknown) => void;
  now?: () => number;
}

/** Who the audit log names for a pause the gateway made. */
const WATCH_ACTOR = { actorId: 'gateway', actorEmail: 'unusual-spend watch' };

const usd = (nanoUsd: number) => `$${(nanoUsd / 1e9).toFixed(2)}`;

/** Why a key was paused, as its refusal and the console say. */
export const pauseReasonOf = (spend: { lastHourNanoUsd: number; hourlyAverageNanoUsd: number }) =>
  `${usd(spend.lastHourNanoUsd)} in the last hour against ${usd(spend.hourlyAverageNanoUsd)} an hour on average`;

/**
 * Watches keys' spend off the request path: the "record" stage only notes which keys spent (a Set
 * add per request); every `checkIntervalMs` those keys — of this interval and the one before, so
 * rows the ledger wrote late are read — and the keys flagged now are checked in one aggregate over
 * the ledger's (key, at, cost) index. A key that turns unusual is flagged on its row (one instance
 * wins), logged once, counted, and with `pause` paused; a flagged key whose spend is back to usual
 * loses its flag, so a later jump is flagged (and logged) again.
 */
export class UnusualSpendWatch {
  readonly counts: UnusualSpendCounts = { checks: 0, flags: 0, pauses: 0, flaggedKeys: 0, pausedKeys: 0 };
  readonly stage: Recorder;
  readonly #settings: UnusualSpendWatchOptions;
  readonly #rule: AbnormalSpendRule;
  readonly #now: () => number;
  #spent = new Set<string>();
  #spentBefore = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #checking: Promise<void> | undefined;

  constructor(settings: UnusualSpendWatchOptions) {
    this.#settings = settings;
    this.#rule = settings.rule ?? DEFAULT_ABNORMAL_SPEND;
    this.#now = settings.now ?? Date.now;
    const spent = () => this.#spent;
    this.stage = {
      record(entry) {
        const keyId = entry.caller?.keyId;
        if (keyId !== undefined && (entry.usage !== undefined || entry.cut !== undefined)) spent().add(keyId);
      },
    };
    this.#timer = setInterval(() => void this.check(), settings.options.checkIntervalMs ?? 60_000);
    this.#timer.unref();
  }

  /** Runs one check (one at a time; a call while one runs waits for it). */
  async check(): Promise<void> {
    while (this.#checking !== undefined) await this.#checking;
    this.#checking = this.#check().catch(this.#settings.onError);
    await this.#checking;
    this.#checking = undefined;
  }

  async #check(): Promise<void> {
    const db = this.#settings.db();
    if (db === undefined) return;
    const recent = new Set([...this.#spent, ...this.#spentBefore]);
    this.#spentBefore = this.#spent;
    this.#spent = new Set();
    const now = this.#now();
    const state = await flagState(db);
    const candidates = [...new Set([...recent, ...state.flagged])];
    // The aggregate is a long read: for a SQLite file, on the read-only connection in its worker thread, off the event loop.
    const unusual = candidates.length === 0 ? [] : await findAbnormalSpend(readsOf(db), now, this.#rule, candidates);
    const flaggedBefore = new Set(state.flagged);
    const unusualIds = new Set(unusual.map((spend) => spend.keyId));
    await clearFlags(
      db,
      state.flagged.filter((keyId) => !unusualIds.has(keyId)),
    );
    let paused = state.paused;
    for (const spend of unusual) {
      if (flaggedBefore.has(spend.keyId) || !(await flagKey(db, spend.keyId, now))) continue;
      this.counts.flags += 1;
      const pausedNow = this.#settings.options.pause === true && (await this.#pause(db, spend, now));
      if (pausedNow) paused += 1;
      const owner = await keyOwnerOf(db, spend.keyId);
      this.#settings.onFlagged({
        keyId: spend.keyId,
        keyName: owner.name,
        accountId: owner.accountId,
        accountEmail: owner.accountEmail,
        lastHourNanoUsd: spend.lastHourNanoUsd,
        hourlyAverageNanoUsd: spend.hourlyAverageNanoUsd,
        paused: pausedNow,
      });
    }
    this.counts.checks += 1;
    this.counts.flaggedKeys = unusual.length;
    this.counts.pausedKeys = paused;
  }

  async #pause(db: StorageDb, spend: { keyId: string; lastHourNanoUsd: number; hourlyAverageNanoUsd: number }, now: number) {
    const reason = pauseReasonOf(spend);
    if (!(await pauseKey(db, spend.keyId, reason, now))) return false;
    this.counts.pauses += 1;
    await appendAuditRow(db, { ...WATCH_ACTOR, action: 'key.paused', target: spend.keyId, detail: reason }, now);
    await this.#settings.onPaused(spend.keyId);
    return true;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    while (this.#checking !== undefined) await this.#checking;
  }
}
