import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gateway } from '../gateway/gateway.js';
import { statusPage } from '../status/status-page.js';
import { switchyardConsole, type ConsoleHandler } from '../console/console-handler.js';
import { switchyardDocs } from '../docs-site/docs-handler.js';
import { sendJson } from '../http/send-json.js';
import { createHostCheck, sendHostNotAllowed } from '../http/allowed-hosts.js';
import type { GatewayOptions } from '../gateway/options.js';
import { configError } from '../canonical/index.js';
import { closeGracefully, type GracefulClose } from './close-gracefully.js';
import type { ResolvedServerOptions } from './config-schema.js';
import { createServerLogger, logsAt, type LogLevel } from './log-level.js';
import { createRequestLog, type RequestLogOutput } from './request-log.js';
import { openLines, type RequestLogOptions } from '../observability/resolve-observability.js';
import { createJsonLineWriter } from '../observability/json-line-writer.js';
import type { RequestLogger } from '../observability/request-log-stage.js';
import type { LineDestination } from '../observability/batched-lines.js';
import { metricsHandler } from '../observability/metrics-handler.js';
import type { Gateway } from '../gateway/gateway.js';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const DEFAULT_SERVER_OPTIONS: ResolvedServerOptions = { port: 8787, host: '127.0.0.1', shutdownTimeoutMs: 10_000, logLevel: 'info' };

export interface RunningServer {
  server: Server;
  /** The API root: Anthropic clients' base URL and `ANTHROPIC_BASE_URL`. */
  root: string;
  /** `root + '/v1'`: OpenAI clients' base URL. */
  openAIBaseURL: string;
  /** Requests being answered right now. */
  openRequests(): number;
  /** The web console's address; undefined when it is off (no database, or `console: false`). */
  consoleUrl: string | undefined;
  /** The guide's address (`root + '/docs'`); undefined when it is off (`server.docs: false`). */
  docsUrl: string | undefined;
  /** Whether the database (if any) was open before the server began listening; undefined without one. */
  databaseReady: boolean | undefined;
  /**
   * Stops accepting, lets open requests finish for `shutdownTimeoutMs`, then ends the rest in their
   * callers' protocols (a stream's in-band error event, a 503 before an answer began: "The gateway
   * is shutting down") and closes their connections; once every connection is closed, the
   * providers' upstream connections are closed too.
   */
  close(): GracefulClose;
}

/** How to reach a listening address from this machine (a wildcard host is reached as localhost). */
function rootUrl(address: AddressInfo): string {
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

function listen(server: Server, settings: ResolvedServerOptions): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.listen(settings.port, settings.host);
    server.once('listening', () => resolve(server));
    server.once('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'EADDRINUSE'
          ? `port ${settings.port} is already in use (EADDRINUSE); stop what uses it, or pick another with --port`
          : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND'
            ? `host '${settings.host}' is not an address of this machine; try --host 127.0.0.1 or --host 0.0.0.0`
            : error.message;
      reject(configError('CONFIG_LISTEN_FAILED', `Cannot listen on ${settings.host}:${settings.port}: ${reason}.`, error));
    });
  });
}

/** How long the server waits for its database before it listens anyway (and keeps retrying). */
const DATABASE_WAIT_MS = 5_000;

/** True once open; false when it is still unreachable after a while. A configuration error (a bad schema name) throws. */
async function waitForDatabase(ready: Promise<void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), DATABASE_WAIT_MS)));
  try {
    return await Promise.race([ready.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The gateway's request log in the server: the server's lines (at `--log-level`) unless the options
 * bring their own logger, file or stream; `false` and a level above `info` turn it off.
 */
function serverRequestLog(
  option: GatewayOptions['requestLog'],
  serverLines: LineDestination | undefined,
  logLevel: LogLevel | undefined,
): GatewayOptions['requestLog'] {
  const ownLogger = typeof option === 'object' && typeof (option as RequestLogger).info === 'function';
  if (option === false || ownLogger) return option;
  if (serverLines === undefined) return logLevel === undefined ? option : false;
  if (option === undefined || option === true) return { destination: serverLines };
  const settings = option as RequestLogOptions;
  // A file or stream of its own, or the server's lines.
  return settings.logger === undefined && settings.file === undefined && settings.destination === undefined
    ? { ...settings, destination: serverLines }
    : settings;
}

/** `GET /ready`: 200 when the database and Redis the gateway uses answer, else 503 naming the one that did not. */
function answerReady(handle: Gateway, res: ServerResponse): void {
  handle.readiness().then(
    (readiness) =>
      sendJson(res, readiness.ready ? 200 : 503, { status: readiness.ready ? 'ready' : 'not_ready', checks: readiness.checks }),
    (error: unknown) => sendJson(res, 503, { status: 'not_ready', error: error instanceof Error ? error.message : String(error) }),
  );
}

/** The probes and the metrics the server answers itself (no key needed); undefined for every other request. */
function serverRoute(req: IncomingMessage, handle: Gateway): ((res: ServerResponse) => void) | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  const path = req.url === undefined ? '/' : req.url.split('?', 1)[0];
  if (path === '/health') return (res) => sendJson(res, 200, { status: 'ok' });
  if (path === '/ready') return (res) => answerReady(handle, res);
  const { metrics } = handle;
  if (path === '/metrics' && metrics !== undefined) return (res) => metricsHandler(metrics)(req, res);
  return undefined;
}

/**
 * The standalone server: a bare `node:http` server (no framework on the hot path) with `GET /health`
 * (live: 200 while it serves), `GET /ready` (200 once the database and Redis answer, else 503),
 * `GET /metrics` (Prometheus; `metrics` is on unless the options turn it off) — no key needed — and
 * the gateway at the root, listening on `settings`. With `settings.logLevel`, the gateway logs at
 * that level (unless `options.logger` is given) and, at `info` or below, each request is a JSON
 * line on `output`: the gateway's request log for generation requests (unless `options.requestLog`
 * is given), the server's for the rest. Configuration errors throw before it listens.
 */
export async function startServer(
  options: GatewayOptions,
  settings: ResolvedServerOptions = DEFAULT_SERVER_OPTIONS,
  output: RequestLogOutput = process.stdout,
): Promise<RunningServer> {
  const { logLevel } = settings;
  // Stdout gets pino's buffered destination (one write for many lines); another output, each line as it comes.
  const logsRequests = logLevel !== undefined && logsAt(logLevel, 'info');
  const flushMs = typeof options.requestLog === 'object' ? (options.requestLog as RequestLogOptions).flushMs : undefined;
  const opened = logsRequests && output === process.stdout ? openLines(undefined, flushMs) : undefined;
  const requestLines = logsRequests ? (opened ?? output) : undefined;
  const requestLogger = requestLines === undefined ? undefined : createJsonLineWriter(requestLines);
  const handle = gateway({
    ...options,
    ...(logLevel === undefined || options.logger !== undefined ? {} : { logger: createServerLogger(logLevel) }),
    requestLog: serverRequestLog(options.requestLog, requestLines, logLevel),
    metrics: options.metrics ?? true,
  });
  const databaseReady = options.database === undefined ? undefined : await waitForDatabase(handle.ready());
  const log = requestLogger === undefined ? undefined : createRequestLog(requestLogger, logsAt(logLevel ?? 'info', 'debug'));
  // The service-check page (`/status`, `/status.json`), on unless `server.status: false`.
  const status = settings.status === false ? undefined : statusPage(handle, settings.status);
  // The console is on by default wherever there is a database; the API keeps /v1 (and /health).
  const consoleHandler: ConsoleHandler | undefined =
    settings.console === false || options.database === undefined
      ? undefined
      : switchyardConsole({ ...settings.console, gateway: handle, ...(options.logger === undefined ? {} : { logger: options.logger }) });
  // The guide at /docs: its pages show this server's address (the console's apiRoot where set), link
  // the status page and the console, and name a signed-in console user's keys.
  const consoleSettings = settings.console === false ? undefined : settings.console;
  const docs =
    settings.docs === false
      ? undefined
      : switchyardDocs({
          basePath: '/docs',
          ...(consoleHandler === undefined ? {} : { gateway: handle }),
          statusPath: status === undefined ? false : '/status',
          consolePath: consoleHandler === undefined ? false : '/',
          ...(consoleSettings?.apiRoot === undefined ? {} : { apiRoot: consoleSettings.apiRoot }),
          ...(consoleSettings?.trustProxy === undefined ? {} : { trustProxy: consoleSettings.trustProxy }),
          ...(options.logger === undefined ? {} : { logger: options.logger }),
        });
  // Every path, /health included: a rebinding page must learn nothing from this server either.
  const hostAllowed = createHostCheck(settings.allowedHosts, settings.host);
  let open = 0;
  const onClose = () => (open -= 1);
  const http = createServer((req, res) => {
    open += 1;
    res.once('close', onClose);
    log?.(req, res);
    if (!hostAllowed(req.headers.host)) {
      sendHostNotAllowed(req, res, 'server.allowedHosts (--allowed-hosts)');
      return;
    }
    const route = serverRoute(req, handle);
    if (route !== undefined) route(res);
    else if (docs !== undefined && /^\/docs(\/|\?|$)/.test(req.url ?? '')) docs(req, res);
    else {
      // The status page takes /status and /status.json, the console the rest outside /v1, the gateway the API.
      const api = () => handle(req, res);
      const rest = consoleHandler === undefined || req.url?.startsWith('/v1') ? api : () => consoleHandler(req, res, api);
      if (status === undefined) rest();
      else status(req, res, rest);
    }
  });

  const server = await listen(http, settings);
  const root = rootUrl(server.address() as AddressInfo);
  return {
    server,
    root,
    openAIBaseURL: `${root}/v1`,
    consoleUrl: consoleHandler === undefined ? undefined : `${root}/`,
    docsUrl: docs === undefined ? undefined : `${root}/docs`,
    openRequests: () => open,
    databaseReady,
    close: () => {
      const closing = closeGracefully(server, settings.shutdownTimeoutMs, () => handle.interrupt());
      return {
        ...closing,
        done: closing.done.then(async (result) => (await status?.close(), await handle.close(), opened?.end(), result)),
      };
    },
  };
}
