import type { Caller } from '../canonical/index.js';
import type { LimitCheck } from './limit-store.js';

/** Limits of one scope: requests and tokens per minute, and requests at once. Each is optional. */
export interface LimitSet {
  readonly requestsPerMinute?: number | undefined;
  readonly tokensPerMinute?: number | undefined;
  readonly concurrency?: number | undefined;
  /** How much of a minute's allowance an idle caller may spend at once; default (and at most) the whole of it. */
  readonly burst?: LimitBurst | undefined;
}

/**
 * Requests (tokens) that may pass at once; the rest come one per `60 s / limit`. In any 60 s at
 * most `requestsPerMinute + requests - 1` requests pass (`1`: at most `requestsPerMinute`).
 */
export interface LimitBurst {
  readonly requests?: number | undefined;
  readonly tokens?: number | undefined;
}

/** A key's limits: its own, per model it calls, and how long a request may wait for a concurrency slot. */
export interface KeyLimits extends LimitSet {
  readonly perModel?: Readonly<Record<string, LimitSet>> | undefined;
  /** Opt-in queueing: a request over the key's concurrency waits up to this many ms for a slot, in order. */
  readonly queueMs?: number | undefined;
}

/** Which limits apply to whom. */
export interface LimitRules {
  /** Every key's limits, unless its own or an override says otherwise. */
  readonly perKey?: KeyLimits | undefined;
  /** Overrides for one key, by its public id or name (`options` for the keys from the options). */
  readonly keys?: Readonly<Record<string, KeyLimits>> | undefined;
  /** A model's limits across all callers (a deployment's quota at its provider). */
  readonly models?: Readonly<Record<string, LimitSet>> | undefined;
}

/** What a limit is, for the 429 message and the headers. */
export interface LimitSubject {
  readonly what: 'requests' | 'tokens' | 'concurrency';
  /** "key sk-sy-abc…", "model gpt-4o", "key … on model …". */
  readonly scope: string;
}

export interface AppliedLimits {
  readonly checks: readonly LimitCheck[];
  readonly subjects: readonly LimitSubject[];
  /** The concurrency checks' keys (the leases a request holds). */
  readonly leaseKeys: readonly string[];
  /** The tokens-per-minute checks (settled when the request ends). */
  readonly tokenChecks: readonly LimitCheck[];
  /** Queueing for this caller, ms; 0 when it is refused at once. */
  readonly queueMs: number;
}

const MINUTE_MS = 60_000;
/** Every caller of a gateway without stored keys (keys from the options, or none required) shares one set of key limits. */
export const OPTIONS_KEY = 'options';

/** The caller's key limits: the defaults, then the key's own (stored keys), then an override by id or name, field by field. */
export function keyLimitsOf(rules: LimitRules, caller: Caller): KeyLimits | undefined {
  if (rules.perKey === undefined && rules.keys === undefined && caller.limits === undefined) return undefined;
  const id = caller.keyId ?? OPTIONS_KEY;
  const override = rules.keys?.[id] ?? (caller.keyName === undefined ? undefined : rules.keys?.[caller.keyName]);
  const layers = [rules.perKey, caller.limits, override].filter((layer): layer is KeyLimits => layer !== undefined);
  if (layers.length === 0) return undefined;
  if (layers.length === 1) return layers[0];
  const merged: { -readonly [K in keyof KeyLimits]: KeyLimits[K] } = {};
  for (const layer of layers) {
    for (const [field, value] of Object.entries(layer) as [keyof KeyLimits, never][]) {
      if (value === undefined) continue;
      if (field === 'perModel') merged.perModel = { ...merged.perModel, ...(value as KeyLimits['perModel']) };
      else if (field === 'burst') merged.burst = { ...merged.burst, ...(value as LimitBurst) };
      else merged[field] = value;
    }
  }
  return merged;
}

/** The burst a rate is counted with: the whole limit unless set; a burst merged from another layer above the limit counts as the limit. */
const burstOf = (limit: number, burst: number | undefined) => (burst === undefined ? limit : Math.min(burst, limit));

/**
 * The limits a request is checked against, in a fixed order (key, key on model, model): a rate of
 * requests costs 1, a rate of tokens costs the request's estimate.
 */
export function limitsFor(rules: LimitRules, caller: Caller, model: string, estimatedTokens: () => number): AppliedLimits {
  const checks: LimitCheck[] = [];
  const subjects: LimitSubject[] = [];
  const leaseKeys: string[] = [];
  const tokenChecks: LimitCheck[] = [];
  const id = caller.keyId ?? OPTIONS_KEY;
  const keyLimits = keyLimitsOf(rules, caller);
  let tokens: number | undefined;
  const add = (counter: string, scope: string, set: LimitSet | undefined) => {
    if (set === undefined) return;
    if (set.requestsPerMinute !== undefined) {
      const burst = burstOf(set.requestsPerMinute, set.burst?.requests);
      checks.push({ key: `${counter}:rpm`, kind: 'rate', limit: set.requestsPerMinute, periodMs: MINUTE_MS, cost: 1, burst });
      subjects.push({ what: 'requests', scope });
    }
    if (set.tokensPerMinute !== undefined) {
      tokens ??= estimatedTokens();
      const burst = burstOf(set.tokensPerMinute, set.burst?.tokens);
      const check: LimitCheck = {
        key: `${counter}:tpm`,
        kind: 'rate',
        limit: set.tokensPerMinute,
        periodMs: MINUTE_MS,
        cost: tokens,
        burst,
      };
      checks.push(check);
      tokenChecks.push(check);
      subjects.push({ what: 'tokens', scope });
    }
    if (set.concurrency !== undefined) {
      checks.push({
        key: `${counter}:concurrent`,
        kind: 'concurrency',
        limit: set.concurrency,
        periodMs: 0,
        cost: 1,
        burst: set.concurrency,
      });
      leaseKeys.push(`${counter}:concurrent`);
      subjects.push({ what: 'concurrency', scope });
    }
  };
  const keyScope = id === OPTIONS_KEY ? 'the keys from the options' : `key ${id}`;
  add(`key:${id}`, keyScope, keyLimits);
  add(`key:${id}:model:${model}`, `${keyScope} on model ${model}`, keyLimits?.perModel?.[model]);
  add(`model:${model}`, `model ${model}`, rules.models?.[model]);
  return { checks, subjects, leaseKeys, tokenChecks, queueMs: keyLimits?.queueMs ?? 0 };
}
