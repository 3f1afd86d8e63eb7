/**
 * What an upstream answered with besides its body, as an adapter reports it through
 * `context.reportUpstream`: for logs that name the upstream's own request id, and limits that
 * learn a provider's quota from its rate-limit headers.
 */
export interface UpstreamResponseInfo {
  /** The upstream's HTTP status. */
  status: number;
  /** The upstream's own id for the request (`x-request-id`, `request-id`), when it sent one. */
  requestId?: string;
  /**
   * Its rate-limit headers, lower-case names as sent: `x-ratelimit-*` (OpenAI and most
   * OpenAI-compatible servers), `anthropic-ratelimit-*`, `retry-after`. Absent when there were none.
   */
  rateLimit?: Readonly<Record<string, string>>;
}
