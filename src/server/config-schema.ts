import { z } from 'zod';
import { findClosestId } from '../canonical/index.js';
import type { GatewayOptions } from '../gateway/options.js';
import {
  balancesOptionsSchema,
  unusualSpendOptionsSchema,
  bodyLimitMessage,
  cooldownOptionsSchema,
  ledgerOptionsSchema,
  limitsOptionsSchema,
  modelConfigSchema,
  retryOptionsSchema,
  timeoutOptionsSchema,
} from '../gateway/options-schema.js';
import { requestPolicyOptionsSchema } from '../policy/request-policy-schema.js';
import type { StatusPageOptions } from '../status/status-page.js';
import { LOG_LEVELS, type LogLevel } from './log-level.js';
import type { ConsoleOptions } from '../console/console-options.js';
import type { AllowedHosts } from '../http/allowed-hosts.js';
import { BUDGET_MAX_USD } from '../access/key-bounds.js';
import type { ReportSource } from '../reconcile/provider-report.js';
import { reportSourcesOf, withoutReportFields } from '../reconcile/report-sources.js';

const consoleSettingsSchema = z.union([
  z.literal(false),
  z.strictObject({
    registration: z.enum(['open', 'invite', 'closed']).optional(),
    admins: z.array(z.string().min(3)).optional(),
    secureCookies: z.union([z.boolean(), z.literal('auto')]).optional(),
    trustProxy: z.union([z.boolean(), z.number().int().nonnegative()]).optional(),
    sessionTtlMs: z.number().int().positive().optional(),
    loginLimits: z
      .strictObject({
        perAccount: z.number().int().positive().optional(),
        perAddress: z.number().int().positive().optional(),
        windowMs: z.number().int().positive().optional(),
      })
      .optional(),
    apiRoot: z
      .string()
      .regex(/^https?:\/\/[^/]/, 'must be an http(s) URL')
      .optional(),
    userKeys: z
      .strictObject({
        models: z.array(z.string().min(1)).optional(),
        budget: z.strictObject({ usd: z.number().nonnegative().max(BUDGET_MAX_USD), period: z.enum(['day', 'month', 'never']) }).optional(),
        limits: z
          .strictObject({
            requestsPerMinute: z.number().int().positive().optional(),
            tokensPerMinute: z.number().int().positive().optional(),
            concurrency: z.number().int().positive().optional(),
          })
          .optional(),
      })
      .optional(),
  }),
]);

/** Where and how the standalone server listens; `switchyard serve` flags override these. */
export interface ResolvedServerOptions {
  /** Default 8787. `0` picks a free port. */
  port: number;
  /** Default `127.0.0.1` (this machine only); `0.0.0.0` listens on every interface. */
  host: string;
  /**
   * Host names the server answers to besides IP literals, `localhost`, `*.localhost` and `host`
   * (`.example.com`: the name and every name under it); `true` or `'*'`: any. Others get a 403
   * `HOST_NOT_ALLOWED` (DNS rebinding). Default none.
   */
  allowedHosts?: AllowedHosts;
  /** How long open requests may run after SIGINT/SIGTERM before their connections are closed. Default 10000. */
  shutdownTimeoutMs: number;
  /** What the server prints (`--log-level`): `info` for `switchyard serve`. Unset: no request lines, and the gateway's logger as given. */
  logLevel?: LogLevel;
  /** The service-check page at `/status` and `/status.json` (on by default); `false` turns it off. */
  status?: false | StatusPageOptions;
  /** The web console at `/` (with a database): its options, or `false` for none (`--no-console`). Default: on, registration open. */
  console?: ServerConsoleOptions | false;
  /** The guide (the package's docs/*.md) at `/docs` (on by default); `false` turns it off. */
  docs?: false;
}

/** The console's options a config file can set (`server.console`); see `switchyardConsole`. */
export type ServerConsoleOptions = Omit<ConsoleOptions, 'gateway' | 'logger' | 'basePath'>;

/** A loaded configuration: the `server` section, and everything else exactly as `gateway()` takes it. */
export interface LoadedConfig {
  server: Partial<ResolvedServerOptions>;
  gateway: GatewayOptions;
  /** `database: false` in the file: no stored keys and no ledger (the server otherwise keeps them in `switchyard.db`). */
  withoutDatabase?: boolean;
  /** What loading decided that the operator should be told at start (the banner), e.g. that default models are served. */
  notes?: readonly string[];
  /** The providers' usage reports `switchyard reconcile` and the console read (providers with an `adminKey`). */
  reportSources?: readonly ReportSource[];
}

/** The one message for any bad port: `server.port must be a port number 0–65535 (got 'eighty')`. */
const portError = (issue: { input?: unknown }) =>
  `must be a port number 0–65535 (got ${typeof issue.input === 'string' ? `'${issue.input.slice(0, 40)}'` : String(issue.input)})`;

const portSchema = z
  .union([z.number(), z.string().regex(/^\d+$/).transform(Number)], { error: portError })
  .pipe(z.number().int({ error: portError }).min(0, { error: portError }).max(65535, { error: portError }));

/** ` Did you mean 'ollama'?` for a near miss among `known`; '' otherwise. */
function suggested(name: string, known: Iterable<string>): string {
  const closest = findClosestId(name, known);
  return closest === undefined ? '' : ` Did you mean '${closest}'?`;
}

/**
 * A built-in provider's configuration; its own options are checked by that provider's schema. The
 * reconciliation fields (`adminKey`, `adminBaseURL`, `apiKeyId`) are the server's: the provider never sees them.
 */
const providerSchema = z.looseObject({
  type: z.string().min(1).optional(),
  adminKey: z.string().min(1).optional(),
  adminBaseURL: z.url({ protocol: /^https?$/ }).optional(),
  apiKeyId: z.string().min(1).optional(),
});

/** The config file: `gateway()`'s serialisable options plus a `server` section. Unknown keys are errors. */
export const configFileSchema = z
  .strictObject({
    server: z
      .strictObject({
        port: portSchema.optional(),
        host: z.string().min(1).optional(),
        allowedHosts: z.union([z.literal(true), z.literal('*'), z.array(z.string().min(1))]).optional(),
        shutdownTimeoutMs: z.number().int().nonnegative().optional(),
        logLevel: z.enum(LOG_LEVELS).optional(),
        status: z
          .union([
            z.literal(false),
            z.strictObject({
              cacheMs: z.number().int().nonnegative().optional(),
              probe: z
                .union([
                  z.literal(false),
                  z.strictObject({
                    intervalMs: z.number().int().min(1000).optional(),
                    maxOutputTokens: z.number().int().positive().optional(),
                    timeoutMs: z.number().int().positive().optional(),
                  }),
                ])
                .optional(),
            }),
          ])
          .optional(),
        console: consoleSettingsSchema.optional(),
        docs: z.literal(false).optional(),
      })
      .optional(),
    apiKeys: z.array(z.string().min(1)).min(1).optional(),
    requireApiKey: z.boolean().optional(),
    providers: z.record(z.string().min(1), providerSchema).optional(),
    models: z.array(modelConfigSchema).min(1).optional(),
    timeouts: timeoutOptionsSchema.optional(),
    bodyLimit: z
      .union([z.number().int().positive(), z.string().regex(/^\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i, bodyLimitMessage)], {
        error: bodyLimitMessage,
      })
      .optional(),
    diagnoseBaseUrl: z.boolean().optional(),
    database: z
      .union([z.literal(false), z.string().min(1), z.strictObject({ url: z.string().min(1), schema: z.string().min(1).optional() })], {
        error: 'must be a SQLite file path, a postgres:// URL, { url, schema }, or false',
      })
      .optional(),
    redis: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
    redisPrefix: z.string().optional(),
    keyCacheTtlMs: z.number().int().nonnegative().optional(),
    adminKey: z.string().min(1).optional(),
    balances: balancesOptionsSchema.optional(),
    unusualSpend: unusualSpendOptionsSchema.optional(),
    allowedOrigins: z.array(z.string().min(1)).optional(),
    ledger: ledgerOptionsSchema.optional(),
    limits: limitsOptionsSchema.optional(),
    requestPolicy: requestPolicyOptionsSchema.optional(),
    requestLog: z
      .union([
        z.boolean(),
        z.strictObject({
          prompts: z.enum(['lengths', 'text']).optional(),
          file: z.string().min(1).optional(),
          flushMs: z.number().int().nonnegative().max(10_000).optional(),
        }),
      ])
      .optional(),
    metrics: z
      .union([z.boolean(), z.strictObject({ keyLabels: z.union([z.boolean(), z.number().int().positive()]).optional() })])
      .optional(),
    tracing: z.boolean().optional(),
    adapt: z.boolean().optional(),
    retries: retryOptionsSchema.optional(),
    cooldowns: cooldownOptionsSchema.optional(),
  })
  .superRefine((config, context) => {
    const known = new Set(['mock', ...Object.keys(config.providers ?? {})]);
    const check = (provider: string | undefined, path: (string | number)[]) => {
      if (provider === undefined || known.has(provider)) return;
      context.addIssue({
        code: 'custom',
        path,
        message: `is '${provider}', which is not defined under 'providers'.${suggested(provider, known)} Use one of: ${[...known].join(', ')}`,
      });
    };
    config.models?.forEach((model, index) => {
      if ((model.provider === undefined) === (model.deployments === undefined)) {
        context.addIssue({
          code: 'custom',
          path: ['models', index, model.provider === undefined ? 'provider' : 'deployments'],
          message:
            model.provider === undefined
              ? 'is required: the key of a provider under providers (or give deployments: [{ provider }, …])'
              : "is given with 'provider': give one or the other",
        });
      }
      check(model.provider, ['models', index, 'provider']);
      model.deployments?.forEach((deployment, at) => check(deployment.provider, ['models', index, 'deployments', at, 'provider']));
    });
  });

export type ConfigFile = z.output<typeof configFileSchema>;

/** Splits a validated file into server settings and the options object `gateway()` takes. */
export function splitConfigFile(file: ConfigFile): LoadedConfig {
  const { server = {}, database, providers, ...others } = file;
  const reportSources = reportSourcesOf(providers);
  const rest =
    providers === undefined
      ? others
      : {
          ...others,
          providers: Object.fromEntries(Object.entries(providers).map(([name, config]) => [name, withoutReportFields(config)])),
        };
  const settings: Partial<ResolvedServerOptions> = {};
  if (server.port !== undefined) settings.port = server.port;
  if (server.host !== undefined) settings.host = server.host;
  if (server.allowedHosts !== undefined) settings.allowedHosts = server.allowedHosts;
  if (server.shutdownTimeoutMs !== undefined) settings.shutdownTimeoutMs = server.shutdownTimeoutMs;
  if (server.logLevel !== undefined) settings.logLevel = server.logLevel;
  if (server.status !== undefined) settings.status = server.status;
  if (server.console !== undefined) settings.console = server.console;
  if (server.docs !== undefined) settings.docs = server.docs;
  const gateway: GatewayOptions = database === undefined || database === false ? rest : { ...rest, database };
  return {
    server: settings,
    gateway,
    ...(database === false ? { withoutDatabase: true } : {}),
    ...(reportSources.length === 0 ? {} : { reportSources }),
  };
}
