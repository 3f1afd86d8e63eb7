import type { UpstreamAttempt } from '../canonical/index.js';

/** A deployment taken out of service, or back in it (`RoutingCall.onCooldown`). */
export interface CooldownEvent {
  readonly deployment: string;
  readonly state: 'cooling' | 'recovered';
  /** How long it is out, for `cooling`. */
  readonly forMs?: number;
}

/** Running totals since the gateway started (this process). */
export interface RoutingCounters {
  attempts: number;
  failedAttempts: number;
  /** Attempts after the first on the same model. */
  retries: number;
  /** Moves to a fallback model (the context fallback included). */
  fallbacks: number;
  /** Cooldowns this process began. */
  cooldowns: number;
}

/** What routing tells the world: each attempt, each cooldown, running totals (metrics and logs read them). */
export interface RoutingEvents {
  /** Calls `listener` for every upstream attempt as it ends; returns the unsubscribe. */
  onAttempt(listener: (attempt: UpstreamAttempt) => void): () => void;
  /** Calls `listener` when this process takes a deployment out or sees it back; returns the unsubscribe. */
  onCooldown(listener: (event: CooldownEvent) => void): () => void;
  counters(): RoutingCounters;
}
