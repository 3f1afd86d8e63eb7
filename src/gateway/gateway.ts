import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { GatewayError } from '../canonical/index.js';
import { diagnoseBaseUrl } from '../http/diagnose-base-url.js';
import { pathNotServed } from '../http/path-not-served.js';
import { AnsweringRequests } from '../http/answering-requests.js';
import { createRequestId } from '../http/request-id.js';
import { sendError, toGatewayError } from '../http/send-error.js';
import type { EndpointHandler, HttpRequest, Next } from '../http/types.js';
import type { GatewayOptions } from './options.js';
import { resolveOptions } from './resolve-options.js';
import type { KeyService } from '../access/key-service.js';
import type { OpenedBalances } from '../limits/open-balances.js';
import { adminAccounts } from '../limits/account-top-ups.js';
import type { Persistence } from './persistence.js';
import type { AdminBackend } from '../admin/admin-api.js';
import { createAdminApi } from '../admin/admin-api.js';
import { createTokenEndpoint } from '../admin/token-endpoint.js';
import { createCors } from '../http/cors.js';
import type { UsageQuery, UsageTotals } from '../usage/usage-queries.js';
import type { ProviderAdapter } from '../providers/types.js';
import type { ModelSummary } from '../canonical/index.js';

export type { ModelSummary } from '../canonical/index.js';
import type { StorageDb } from '../storage/schema.js';
import type { InboundCodec } from '../protocols/codec.js';
import { chatCodec } from '../protocols/chat-completions/index.js';
import { messagesCodec } from '../protocols/messages/index.js';
import { responsesCodec } from '../protocols/responses/index.js';
import { createCountTokensEndpoint, messagesTokenCounting, responsesTokenCounting } from '../endpoints/count-tokens.js';
import { anthropicRules, openAIRules } from '../endpoints/endpoint-rules.js';
import { createGenerationEndpoint } from '../endpoints/generation.js';
import { shuttingDown } from '../pipeline/open-requests.js';
import { compilePipeline } from '../pipeline/compile-pipeline.js';
import { resolveModel } from '../routing/resolve-model.js';
import type { MetricsRegistry } from '../observability/gateway-metrics.js';
import type { Readiness } from '../observability/readiness.js';
import { createModelsEndpoints } from '../endpoints/models.js';
import { createModelProbe, PROBE_CALLER_ID } from '../endpoints/probe-model.js';
import { registerStatusSource } from '../status/status-source.js';
import type { RoutingEvents } from '../routing/routing-events.js';

/**
 * The gateway as a request handler. It is Express middleware (`app.use(gateway())`, at any mount
 * path) and a plain `node:http` handler (`http.createServer(gateway())`) alike: paths it does not
 * own go to `next`, or get a 404 when there is no `next`.
 */
export interface Gateway {
  (req: IncomingMessage, res: ServerResponse, next?: Next): void;
  /**
   * Releases what the gateway holds: upstream connections, then — once the requests still in
   * flight ended and were recorded — the ledger (rows still waiting are written, or stay in the
   * outbox for the next start), Redis and the database. Call it once the server stopped taking
   * requests; the standalone server does on shutdown.
   */
  close(): Promise<void>;
  /**
   * Ends the generation requests still open, for a shutdown's deadline, instead of leaving them to
   * be cut: their upstream calls are cancelled, a stream ends with its protocol's in-band error
   * event (`The gateway is shutting down; retry the request.`) and a properly ended body, and an
   * answer that had not begun is the protocol's 503 (Anthropic: 529 `overloaded_error`). Requests
   * that come after it get that error too. Returns how many were open. The standalone server calls
   * it when `shutdownTimeoutMs` is up; then close the connections, then `close()`.
   */
  interrupt(): number;
  /**
   * Resolves once the `database` is open and migrated (at once without one). Requests do not
   * wait for it; the standalone server does, to report where the database is.
   */
  ready(): Promise<void>;
  /** Stored keys — create, list, revoke — with a `database`; undefined without one. */
  readonly keys: KeyService | undefined;
  /** Account balances, with `balances` on: the console, CLI and admin API tell it of credits. */
  readonly balances: OpenedBalances | undefined;
  /** Usage totals per key, model or day from the ledger; throws `NO_DATABASE` without a `database`. */
  usage(query: UsageQuery): Promise<UsageTotals[]>;
  /**
   * This gateway's Prometheus registry, with `metrics` on (undefined otherwise): mount it with
   * `app.get('/metrics', metricsHandler(handler.metrics!))`, or merge it into the app's own
   * (`Registry.merge`). It is the gateway's own, not prom-client's global registry.
   */
  readonly metrics: MetricsRegistry | undefined;
  /**
   * Whether the database and Redis the gateway uses answer (a query, a `PING`), each within a
   * second: `{ ready, checks: { database?, redis? } }`. Ready at once when it uses neither.
   */
  readiness(): Promise<Readiness>;
  /** The models served, in configuration order, as a console shows them (no provider secrets). */
  readonly models: readonly ModelSummary[];
  /** The query builder over the `database` (once open), for the console; undefined without one. */
  readonly storage: (() => Promise<StorageDb>) | undefined;
  /**
   * Every upstream attempt (`onAttempt`: model, deployment, how it ended) and cooldown (`onCooldown`)
   * as it happens, and running totals (`counters()`): for metrics, logs and alerts.
   */
  readonly routing: RoutingEvents;
  /**
   * The stages a generation request for `model` runs, in order, as compiled from the options (a
   * feature that is off is not there), ending with `call`: e.g. `['record', 'authenticate', 'fit',
   * 'police', 'admit', 'call']`. Throws the 404 GatewayError for a model it does not serve.
   */
  stagesFor(model: string): readonly string[];
}

/** Errors outside an endpoint are answered in Anthropic's shape on Messages paths, OpenAI's elsewhere. */
const codecFor = (req: HttpRequest, path: string): InboundCodec =>
  path.includes('/messages') || req.headers['anthropic-version'] !== undefined ? messagesCodec : chatCodec;

/** The path without its query, and without one trailing slash (Express matched `/x/` as `/x`). */
function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  const path = query === -1 ? raw : raw.slice(0, query);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** Where the gateway is mounted, as a client reaches it: Express's scheme and mount path when there are. */
function apiRootOf(req: HttpRequest): string {
  const scheme = req.protocol ?? ((req.socket as TLSSocket).encrypted ? 'https' : 'http');
  return `${scheme}://${req.headers.host ?? 'localhost'}${req.baseUrl ?? ''}`;
}

function sendGatewayError(req: HttpRequest, res: ServerResponse, path: string, error: GatewayError): void {
  const requestId = createRequestId();
  sendError(res, codecFor(req, path), error, requestId);
}

function methodNotAllowed(req: HttpRequest, res: ServerResponse, path: string, allowed: string): void {
  res.setHeader('Allow', allowed);
  const message = `${req.method ?? 'This method'} is not allowed on ${path}; use ${allowed}.`;
  sendGatewayError(req, res, path, new GatewayError({ code: 'METHOD_NOT_ALLOWED', message }));
}

/**
 * Serves OpenAI Chat Completions, OpenAI Responses and Anthropic Messages under `/v1`, plus
 * `GET /v1/models` and the token counts (`POST /v1/messages/count_tokens`, `POST
 * /v1/responses/input_tokens`). Paths it does not own pass through to the host app.
 *
 * @example
 * const app = express();
 * app.use(gateway({ apiKeys: [process.env.SWITCHYARD_API_KEY!] }));
 * app.listen(8787);
 */
export function gateway(options: GatewayOptions = {}): Gateway {
  const resolved = resolveOptions(options);
  const { open } = resolved;
  const posts = new Map<string, EndpointHandler>([
    ['/v1/chat/completions', createGenerationEndpoint(chatCodec, resolved, openAIRules, open)],
    ['/v1/responses', createGenerationEndpoint(responsesCodec, resolved, openAIRules, open)],
    ['/v1/messages', createGenerationEndpoint(messagesCodec, resolved, anthropicRules, open)],
    ['/v1/messages/count_tokens', createCountTokensEndpoint(resolved, messagesTokenCounting)],
    ['/v1/responses/input_tokens', createCountTokensEndpoint(resolved, responsesTokenCounting)],
  ]);
  const models = createModelsEndpoints({ openai: chatCodec, anthropic: messagesCodec }, resolved);
  const { persistence } = resolved;
  if (persistence !== undefined) {
    posts.set('/v1/tokens', createTokenEndpoint(resolved.stages.authenticate, persistence.tokens, resolved.logger, chatCodec));
  }
  /** What a 404 for a path nothing serves lists. */
  const served = [...[...posts.keys()].map((path) => `POST ${path}`), 'GET /v1/models', 'GET /v1/models/{id}'];
  const cors = resolved.allowedOrigins.length === 0 ? undefined : createCors(resolved.allowedOrigins);
  const admin =
    resolved.adminKey === undefined || persistence === undefined
      ? undefined
      : createAdminApi({
          adminKey: resolved.adminKey,
          backend: adminBackendOf(persistence, resolved.balances),
          logger: resolved.logger,
          errors: chatCodec,
        });

  /** Requests being answered: `close` lets them finish (and be recorded) before the ledger closes. */
  const inFlight = new AnsweringRequests();
  // Endpoint handlers answer their own errors; this only catches a bug that escaped one.
  const settle = (req: HttpRequest, res: ServerResponse, path: string, answering: Promise<void>) => {
    const cohort = inFlight.begin();
    // One reaction for both outcomes, not three promises (hot-path rule 2, docs/architecture.md#hot-path-rules).
    void answering.then(
      () => cohort.ended(),
      (error: unknown) => {
        cohort.ended();
        const requestId = createRequestId();
        const gatewayError = toGatewayError(error, resolved.logger, requestId);
        if (res.headersSent) res.end();
        else sendGatewayError(req, res, path, gatewayError);
      },
    );
  };

  const serve = function switchyard(incoming: IncomingMessage, res: ServerResponse, next?: Next): void {
    const req = incoming as HttpRequest;
    const path = pathOf(req.url);
    if (cors?.(req, res)) return;
    if (admin?.(req, res, path)) return;
    const post = posts.get(path);
    if (post !== undefined) {
      if (req.method === 'POST') settle(req, res, path, post(req, res));
      else methodNotAllowed(req, res, path, 'POST');
      return;
    }
    const isGet = req.method === 'GET' || req.method === 'HEAD';
    if (isGet && path === '/v1/models') {
      settle(req, res, path, models.list(req, res));
      return;
    }
    if (isGet && path.startsWith('/v1/models/') && path.length > '/v1/models/'.length) {
      settle(req, res, path, models.one(req, res, path.slice('/v1/models/'.length)));
      return;
    }
    const diagnosis = resolved.diagnoseBaseUrl ? diagnoseBaseUrl(req, path, apiRootOf(req), codecFor(req, path).protocol) : undefined;
    if (diagnosis) sendGatewayError(req, res, path, diagnosis);
    else if (next) next();
    else sendGatewayError(req, res, path, pathNotServed(req.method, path, served));
  };
  let closing: Promise<void> | undefined;
  const summaries: ModelSummary[] = resolved.modelList.map((model) => ({
    id: model.id,
    ownedBy: model.ownedBy,
    // The configured price, else the catalog's.
    price: model.price?.price,
    contextWindow: model.contextWindow,
    maxOutputTokens: model.maxOutputTokens,
    capabilities: model.capabilities,
  }));
  const handle = Object.assign(serve, {
    models: summaries,
    storage: persistence === undefined ? undefined : async () => (await persistence.database.ready()).db,
    close() {
      closing ??= (async () => {
        // Closing the adapters ends what is still streaming; those requests are then recorded, then the ledger closes.
        await closeAdapters(resolved.adapters);
        await inFlight.settled();
        resolved.recording.flush();
        // Limit leases and cooldowns reach Redis before the persistence layer (which may own the client) closes it.
        await resolved.limits?.close();
        await resolved.balances?.close();
        await resolved.unusualSpend?.close();
        await resolved.routing.close();
        await persistence?.close();
        resolved.closeObservability();
      })();
      return closing;
    },
    interrupt: () => open.interrupt(shuttingDown()),
    async ready() {
      await persistence?.database.ready();
    },
    keys: persistence?.keys,
    balances: resolved.balances,
    metrics: resolved.metrics?.registry,
    readiness: () => resolved.readiness(),
    routing: {
      onAttempt: resolved.routing.call.onAttempt,
      onCooldown: resolved.routing.call.onCooldown,
      counters: resolved.routing.call.counters,
    },
    stagesFor(model: string) {
      const chat = compilePipeline(
        {
          services: resolved.stages,
          requestPolicy: resolved.requestPolicy,
          logger: resolved.logger,
          userStages: resolved.userStages ?? [],
        },
        { endpoint: 'generation', codec: chatCodec, acceptXApiKey: false, forwardedHeaders: [] },
      );
      return [...chat.routeOf(resolveModel(resolved.models, model, resolved.unavailableModels)).stages.map((stage) => stage.name), 'call'];
    },
    async usage(query: UsageQuery) {
      if (persistence === undefined) {
        throw new GatewayError({ code: 'NO_DATABASE', message: 'Usage is kept only with a database: pass gateway({ database }).' });
      }
      return persistence.usage(query);
    },
  });
  // What `statusPage(handle)` reads: the models, the ledger, Redis and the call path for its probe.
  const probe = createModelProbe(resolved);
  registerStatusSource(handle, {
    models: resolved.modelList.map((model) => model.id),
    database: async () => persistence?.database.current?.db,
    startedAt: Date.now(),
    redis: persistence?.redis,
    redisPrefix: options.redisPrefix ?? 'switchyard:',
    logger: resolved.logger,
    ledger: persistence?.ledger !== undefined,
    probeCaller: PROBE_CALLER_ID,
    probe: (model, maxOutputTokens, timeoutMs) =>
      closing === undefined
        ? probe({ model, maxOutputTokens, timeoutMs })
        : Promise.resolve({ model, ok: false, errorCode: 'SHUTTING_DOWN' }),
  });
  return handle;
}

/** The admin API's backend: stored keys and the ledger, and with `balances` the accounts' balances. */
function adminBackendOf(persistence: Persistence, balances: OpenedBalances | undefined): AdminBackend {
  if (balances === undefined) return persistence;
  const db = async () => (await persistence.database.ready()).db;
  return {
    keys: persistence.keys,
    usage: (query) => persistence.usage(query),
    ledgerCounters: () => persistence.ledgerCounters(),
    accounts: adminAccounts(db, (accountId) => balances.credited(accountId)),
  };
}

/** Closes every adapter that can be closed; one that fails to close does not stop the others. */
async function closeAdapters(adapters: readonly ProviderAdapter[]): Promise<void> {
  await Promise.allSettled(adapters.map((adapter) => adapter.close?.()));
}
