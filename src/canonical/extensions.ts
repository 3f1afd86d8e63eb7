/**
 * Fields a protocol can say that the canonical model has no shared home for.
 * Each protocol keeps its own bag, keyed by the protocol word, so a same-protocol
 * round trip can restore them and a cross-protocol encoder can see (and refuse)
 * what it cannot carry. Values are the wire's own JSON, unchanged.
 */
export interface Extensions {
  chat?: Record<string, unknown>;
  responses?: Record<string, unknown>;
  messages?: Record<string, unknown>;
}

/** The three wire protocols Switchyard speaks. */
export type ProtocolName = keyof Extensions;
