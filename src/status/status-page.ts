import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GatewayError } from '../canonical/index.js';
import { sendJson } from '../http/send-json.js';
import { readsOf } from '../storage/reads-of.js';
import type { Next } from '../http/types.js';
import { ProbeLock } from './probe-lock.js';
import { ProbeScheduler, type ResolvedProbeOptions } from './probe-scheduler.js';
import { renderStatusHtml } from './render-status-html.js';
import { modelStatuses, unknownStatus, type StatusReport } from './status-report.js';
import { statusSourceOf } from './status-source.js';

export interface StatusPageOptions {
  /** How long a computed page is served again before the ledger is read anew, in ms. Default 5000. */
  cacheMs?: number;
  /**
   * The synthetic probe for models without recent traffic; `false` turns it off. On by default
   * (needs the ledger): every `intervalMs` (default 300000) one instance sends each model that had
   * no request for that long a tiny request of `maxOutputTokens` (default 16), cancelled after
   * `timeoutMs` (default 30000).
   */
  probe?: false | Partial<ResolvedProbeOptions>;
}

/** `statusPage(gateway)`: Express middleware and a `node:http` handler alike, plus `close`. */
export interface StatusPage {
  (req: IncomingMessage, res: ServerResponse, next?: Next): void;
  /** The current report (cached like the page). */
  report(): Promise<StatusReport>;
  /** Stops the probe (waiting for a round under way). */
  close(): Promise<void>;
}

const DEFAULT_PROBE: ResolvedProbeOptions = { intervalMs: 300_000, maxOutputTokens: 16, timeoutMs: 30_000 };

function packageVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return manifest.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The path below the mount point, without its query or a trailing slash. */
function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  const path = query === -1 ? raw : raw.slice(0, query);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * The service-check page of a gateway: `GET /status` (HTML) and `GET /status.json`, public (no key),
 * per model from the ledger every instance writes — success rate, time to first token, output
 * speed, 429s and upstream errors over the last hour, day and week — plus the version and uptime.
 * It shows no key, prompt or user. Other paths go to `next`.
 *
 * @example
 * const api = gateway({ database: 'switchyard.db', apiKeys: [key] });
 * app.use(statusPage(api));
 * app.use(api);
 */
export function statusPage(gateway: object, options: StatusPageOptions = {}): StatusPage {
  const source = statusSourceOf(gateway);
  if (source === undefined) {
    throw new GatewayError({ code: 'CONFIG_INVALID', message: 'statusPage() takes the gateway that gateway() returned.' });
  }
  const cacheMs = options.cacheMs ?? 5_000;
  const version = packageVersion();
  const probeSettings = options.probe === false || !source.ledger ? undefined : { ...DEFAULT_PROBE, ...options.probe };
  const scheduler =
    probeSettings === undefined ? undefined : new ProbeScheduler(source, new ProbeLock(source.redis, source.redisPrefix), probeSettings);
  scheduler?.start();

  let cached: { report: Promise<StatusReport>; until: number } | undefined;
  const compute = async (): Promise<StatusReport> => {
    const now = Date.now();
    const db = await source.database();
    const models =
      db === undefined ? source.models.map(unknownStatus) : await modelStatuses(readsOf(db), source.models, source.probeCaller, now);
    return {
      version,
      startedAt: new Date(source.startedAt).toISOString(),
      uptimeSeconds: 0,
      generatedAt: new Date(now).toISOString(),
      ledger: db !== undefined,
      probe: { enabled: probeSettings !== undefined, intervalMs: probeSettings?.intervalMs ?? null },
      models,
    };
  };
  /** One computation at a time, shared by every request within `cacheMs`: the page never loads the database. */
  const report = async (): Promise<StatusReport> => {
    const now = Date.now();
    if (cached === undefined || now >= cached.until) {
      const computing = compute();
      cached = { report: computing, until: Number.POSITIVE_INFINITY };
      computing.then(
        () => cached?.report === computing && (cached.until = Date.now() + cacheMs),
        () => cached?.report === computing && (cached = undefined),
      );
    }
    const current = await cached.report;
    return { ...current, uptimeSeconds: Math.floor((now - source.startedAt) / 1000) };
  };

  const serve = (req: IncomingMessage, res: ServerResponse, next?: Next): void => {
    const path = pathOf(req.url);
    const isGet = req.method === 'GET' || req.method === 'HEAD';
    if (!isGet || (path !== '/status' && path !== '/status.json')) {
      if (next) next();
      else sendJson(res, 404, { error: { message: `Nothing is served at ${req.method ?? 'GET'} ${path}.` } });
      return;
    }
    report().then(
      (current) => {
        if (path === '/status.json') {
          sendJson(res, 200, current, undefined, { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
          return;
        }
        const html = renderStatusHtml(current);
        res.writeHead(200, {
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Length': Buffer.byteLength(html),
          'Cache-Control': 'no-cache',
          'X-Content-Type-Options': 'nosniff',
          // No script and nothing from elsewhere: only the page's own inline style.
          'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
        });
        res.end(req.method === 'HEAD' ? undefined : html);
      },
      (error: unknown) => {
        source.logger.error({ error }, 'switchyard: the status page could not be computed');
        sendJson(res, 503, { error: { message: 'The status cannot be read right now; try again shortly.', code: 'STATUS_UNAVAILABLE' } });
      },
    );
  };
  return Object.assign(serve, { report, close: async () => scheduler?.close() });
}
