import { z } from 'zod';
import { configIssueError } from '../canonical/index.js';

/**
 * The options every built-in provider takes; each provider's options extend them (its own
 * `options.ts`), and its schema spreads `providerOptionsShape`.
 */
export interface ProviderOptions {
  /** Provider id in logs. Default: the provider's name. */
  id?: string;
  /** The provider's key. Default: the provider's environment variable. */
  apiKey?: string;
  /** Where its API is. Default: the provider's own. */
  baseURL?: string;
  /** Extra headers on every call; they win over the defaults (e.g. a proxy's own auth). */
  headers?: Record<string, string>;
  /**
   * The transport's outer limit, in ms, on the wait for an answer to start and on silence inside
   * it, for calls no model's `timeouts` watch (a forwarded token count). Default 600000 (10 min). A
   * generation call is held to its model's `timeouts` alone, which are what to tune.
   */
  timeoutMs?: number;
  /** Most connections open to the upstream at once; each call or stream holds one. Default: no limit. */
  maxConnections?: number;
  /** Largest answer read from the upstream (a whole answer, or one stream event), in bytes; past it the call fails with 502. Default 67108864 (64 MiB). */
  maxAnswerBytes?: number;
}

/** The one default of `timeoutMs`, for every provider. */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 600_000;

/** The schema fields of `ProviderOptions`, spread into each provider's strict schema. */
export const providerOptionsShape = {
  id: z.string().min(1).optional(),
  apiKey: z.string().min(1).optional(),
  baseURL: z.url({ protocol: /^https?$/ }).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  timeoutMs: z.number().int().positive().optional(),
  maxConnections: z.number().int().positive().optional(),
  maxAnswerBytes: z.number().int().positive().optional(),
};

/**
 * A provider's options checked against its schema, once (the config file's built-in providers
 * too: create-provider.ts adds the `providers.<key>` path to the error). A bad option throws
 * `CONFIG_PROVIDER_INVALID` naming the field, with `example` showing a correct call.
 */
export function parseProviderOptions<T>(schema: z.ZodType<T>, options: unknown, subject: string, example: string): T {
  const parsed = schema.safeParse(options);
  if (!parsed.success) throw configIssueError('CONFIG_PROVIDER_INVALID', subject, parsed.error.issues[0], example);
  return parsed.data;
}

/** What the transport (`createUpstream`) takes of the shared options, defaults applied. */
export function transportOptionsOf(options: ProviderOptions): {
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  connections?: number;
  maxAnswerBytes?: number;
} {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  return {
    headersTimeoutMs: timeoutMs,
    bodyTimeoutMs: timeoutMs,
    ...(options.maxConnections === undefined ? {} : { connections: options.maxConnections }),
    ...(options.maxAnswerBytes === undefined ? {} : { maxAnswerBytes: options.maxAnswerBytes }),
  };
}

/** Whether `headers` has `name` in any letter case (a key given as a header instead of `apiKey`). */
export const hasHeader = (headers: Record<string, string> | undefined, name: string): boolean =>
  Object.keys(headers ?? {}).some((key) => key.toLowerCase() === name);
