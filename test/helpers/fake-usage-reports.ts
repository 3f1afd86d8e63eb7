import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for the providers' admin report endpoints, answering in their documented
 * shapes: OpenAI's organization usage and costs (`/v1/organization/usage/completions`,
 * `/v1/organization/costs`: buckets of `start_time`/`end_time` in Unix seconds) and Anthropic's
 * Usage and Cost Admin API (`/v1/organizations/usage_report/messages`,
 * `/v1/organizations/cost_report`: buckets of RFC 3339 `starting_at`/`ending_at`). One bucket per
 * UTC day of the asked range (empty days included, as the providers answer), at most
 * `bucketsPerPage` a page whatever `limit` asks, so a reader must follow `next_page`.
 */
export interface FakeReportData {
  /** Day (`2026-11-01`) → that day's results, exactly as the provider would list them. */
  usage: Record<string, Record<string, unknown>[]>;
  costs: Record<string, Record<string, unknown>[]>;
}

export interface SeenRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
}

export interface FakeUsageReports {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

const DAY_MS = 86_400_000;
const day = (epochMs: number) => new Date(epochMs).toISOString().slice(0, 10);

export async function startFakeUsageReports(options: {
  provider: 'openai' | 'anthropic';
  adminKey: string;
  data: FakeReportData;
  bucketsPerPage?: number;
  /** The first this many requests are answered 429 with `retry-after: 0` (the admin APIs are rate-limited). */
  rateLimitFirst?: number;
}): Promise<FakeUsageReports> {
  let rateLimited = 0;
  const { provider, adminKey, data } = options;
  const perPage = options.bucketsPerPage ?? 2;
  const requests: SeenRequest[] = [];
  const routes: Record<string, keyof FakeReportData> =
    provider === 'openai'
      ? { '/v1/organization/usage/completions': 'usage', '/v1/organization/costs': 'costs' }
      : { '/v1/organizations/usage_report/messages': 'usage', '/v1/organizations/cost_report': 'costs' };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push({ path: url.pathname, query: url.searchParams, headers: req.headers });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const authorized =
      provider === 'openai'
        ? req.headers.authorization === `Bearer ${adminKey}`
        : req.headers['x-api-key'] === adminKey && req.headers['anthropic-version'] !== undefined;
    if (!authorized) {
      return send(
        401,
        provider === 'openai'
          ? { error: { message: 'Invalid authorization header', type: 'invalid_request_error', code: null, param: null } }
          : { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
      );
    }
    if (rateLimited < (options.rateLimitFirst ?? 0)) {
      rateLimited += 1;
      res.setHeader('retry-after', '0');
      return send(
        429,
        provider === 'openai'
          ? { error: { message: 'Rate limit reached', type: 'rate_limit_error' } }
          : { type: 'error', error: { type: 'rate_limit_error', message: 'Rate limited' } },
      );
    }
    const report = routes[url.pathname];
    if (report === undefined) return send(404, { error: { message: `no route ${url.pathname}` } });
    const start =
      provider === 'openai' ? Number(url.searchParams.get('start_time')) * 1000 : Date.parse(url.searchParams.get('starting_at') ?? '');
    const endText = provider === 'openai' ? url.searchParams.get('end_time') : url.searchParams.get('ending_at');
    const end = endText === null ? start + 7 * DAY_MS : provider === 'openai' ? Number(endText) * 1000 : Date.parse(endText);
    if (!Number.isFinite(start) || !Number.isFinite(end) || url.searchParams.get('bucket_width') !== '1d')
      return send(400, { error: { message: 'bad range or bucket_width' } });
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 7), perPage);
    const page = url.searchParams.get('page');
    const first = page === null ? start : Number(Buffer.from(page, 'base64url').toString());
    const buckets = [];
    let at = first;
    for (; at < end && buckets.length < limit; at += DAY_MS) {
      const results = data[report][day(at)] ?? [];
      buckets.push(
        provider === 'openai'
          ? { object: 'bucket', start_time: at / 1000, end_time: (at + DAY_MS) / 1000, results }
          : {
              starting_at: new Date(at).toISOString().replace('.000Z', 'Z'),
              ending_at: new Date(at + DAY_MS).toISOString().replace('.000Z', 'Z'),
              results,
            },
      );
    }
    const more = at < end;
    const next = more ? Buffer.from(String(at)).toString('base64url') : null;
    return send(
      200,
      provider === 'openai'
        ? { object: 'page', data: buckets, has_more: more, next_page: next }
        : { data: buckets, has_more: more, next_page: next },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
