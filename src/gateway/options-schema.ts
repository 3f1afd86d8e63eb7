import { z } from 'zod';
import type { ApiKeyVerifier } from '../access/authenticate.js';
import type { BuiltInProviderOptions } from '../providers/create-provider.js';
import type { Logger, ProviderAdapter } from '../providers/types.js';
import type { Database } from '../storage/open-database.js';
import { requestPolicyOptionsSchema, requestPolicySchema } from '../policy/request-policy-schema.js';

// The shape of `gateway()`'s options, checked once when a gateway is built; the config file
// loader checks the parts a file can hold against the same schemas.

const capabilitiesSchema = z
  .strictObject({
    streaming: z.boolean(),
    tools: z.boolean(),
    images: z.boolean(),
    files: z.boolean(),
    audio: z.boolean(),
    reasoning: z.boolean(),
    structuredOutput: z.boolean(),
    providerTools: z.array(z.enum(['chat', 'responses', 'messages'])),
  })
  .partial();

const limitSetFields = {
  requestsPerMinute: z.number().int().positive().optional(),
  tokensPerMinute: z.number().int().positive().optional(),
  concurrency: z.number().int().positive().optional(),
  burst: z.strictObject({ requests: z.number().int().positive().optional(), tokens: z.number().int().positive().optional() }).optional(),
};

/** A burst is part of a minute's allowance: not more than the limit it goes with, when both are in one set. */
const burstWithinLimit = (
  set: {
    requestsPerMinute?: number | undefined;
    tokensPerMinute?: number | undefined;
    burst?: { requests?: number | undefined; tokens?: number | undefined } | undefined;
  },
  context: z.RefinementCtx,
) => {
  const pairs = [
    ['requests', 'requestsPerMinute', set.burst?.requests, set.requestsPerMinute],
    ['tokens', 'tokensPerMinute', set.burst?.tokens, set.tokensPerMinute],
  ] as const;
  for (const [field, limitField, burst, limit] of pairs) {
    if (burst !== undefined && limit !== undefined && burst > limit) {
      context.addIssue({
        code: 'custom',
        path: ['burst', field],
        message: `burst.${field} (${burst}) is more than ${limitField} (${limit}): a burst is the part of a minute's allowance that may be spent at once`,
      });
    }
  }
};
const limitSetSchema = z.strictObject(limitSetFields).superRefine(burstWithinLimit);
const keyLimitsSchema = z
  .strictObject({
    ...limitSetFields,
    perModel: z.record(z.string().min(1), limitSetSchema).optional(),
    queueMs: z.number().int().nonnegative().optional(),
  })
  .superRefine(burstWithinLimit);

/** `limits`; the config file loader checks the same shape. */
/** `balances`: console accounts hold a prepaid balance. */
export const balancesOptionsSchema = z.strictObject({
  admins: z.boolean().optional(),
  creditsTtlMs: z.number().int().nonnegative().optional(),
});

/** `unusualSpend`: flag (and optionally pause) keys whose spend jumps. */
export const unusualSpendOptionsSchema = z.union([
  z.literal(false),
  z.strictObject({
    pause: z.boolean().optional(),
    checkIntervalMs: z.number().int().min(10).optional(),
  }),
]);

export const limitsOptionsSchema = z.strictObject({
  perKey: keyLimitsSchema.optional(),
  keys: z.record(z.string().min(1), keyLimitsSchema).optional(),
  whenStoreDown: z.enum(['open', 'closed']).optional(),
  leaseMs: z.number().int().min(1_000).optional(),
  storeTimeoutMs: z.number().int().positive().optional(),
  givebackWaitMs: z.number().int().min(0).max(1_000).optional(),
});

/** `timeouts`, and `models[].timeouts`; the config file loader checks the same shape. */
export const timeoutOptionsSchema = z.strictObject({
  connectMs: z.number().int().positive().optional(),
  firstTokenMs: z.number().int().positive().optional(),
  idleMs: z.number().int().positive().optional(),
  totalMs: z.number().int().positive().optional(),
  failoverWindowMs: z.number().int().nonnegative().optional(),
  keepAliveMs: z.number().int().positive().optional(),
});

/** `retries`, globally and per model; the config file loader checks the same shape. */
export const retryOptionsSchema = z.strictObject({
  attempts: z.number().int().min(0).max(10).optional(),
  baseDelayMs: z.number().int().nonnegative().optional(),
  maxDelayMs: z.number().int().nonnegative().optional(),
  maxRetryAfterMs: z.number().int().nonnegative().optional(),
});

/** `cooldowns`; the config file loader checks the same shape. */
export const cooldownOptionsSchema = z.union([
  z.literal(false),
  z.strictObject({
    failures: z.number().int().positive().optional(),
    windowMs: z.number().int().positive().optional(),
    cooldownMs: z.number().int().positive().optional(),
    maxCooldownMs: z.number().int().positive().optional(),
    refreshMs: z.number().int().nonnegative().optional(),
  }),
]);

const deploymentSchema = z.strictObject({
  provider: z.string().min(1),
  upstreamModel: z.string().min(1).optional(),
  name: z.string().min(1).max(200).optional(),
  weight: z.number().positive().optional(),
});

/** One `models[]` entry; the config file loader checks the same shape. */
/** USD per million tokens. */
const usdPerMillion = z.number().nonnegative();
const tierPrices = {
  cachedInput: usdPerMillion.optional(),
  cacheWrite: usdPerMillion.optional(),
  cacheWrite1h: usdPerMillion.optional(),
  reasoning: usdPerMillion.optional(),
};

/** `models[].price`: a model's prices (`ModelPrice`). */
export const modelPriceSchema = z.strictObject({
  input: usdPerMillion,
  output: usdPerMillion,
  ...tierPrices,
  tiers: z
    .array(
      z.strictObject({
        aboveInputTokens: z.number().int().nonnegative(),
        input: usdPerMillion.optional(),
        output: usdPerMillion.optional(),
        ...tierPrices,
      }),
    )
    .optional(),
});

export const modelConfigSchema = z.strictObject({
  id: z.string().min(1),
  provider: z.string().min(1).optional(),
  upstreamModel: z.string().min(1).optional(),
  deployments: z.array(deploymentSchema).min(1).optional(),
  strategy: z.enum(['weighted', 'least-busy', 'lowest-latency']).optional(),
  fallbacks: z.array(z.string().min(1)).optional(),
  contextFallback: z.string().min(1).optional(),
  retries: retryOptionsSchema.optional(),
  aliases: z.array(z.string().min(1)).optional(),
  contextWindow: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  capabilities: capabilitiesSchema.optional(),
  ownedBy: z.string().optional(),
  hostedTools: z.enum(['refuse', 'omit']).optional(),
  adapt: z.boolean().optional(),
  price: modelPriceSchema.optional(),
  limits: limitSetSchema.optional(),
  requestPolicy: requestPolicySchema.optional(),
  timeouts: timeoutOptionsSchema.optional(),
});

/** `ledger`: its settings, or `false`; the config file loader checks the same shape. */
export const ledgerOptionsSchema = z.union([
  z.literal(false),
  z.strictObject({
    outbox: z.string().min(1).optional(),
    interruptedStreams: z.enum(['estimate', 'reported-only']).optional(),
    batchSize: z.number().int().positive().max(5000).optional(),
    intervalMs: z.number().int().nonnegative().optional(),
    commitEveryMs: z.number().int().positive().max(10_000).optional(),
    checkpointEveryMs: z.number().int().positive().max(3_600_000).optional(),
  }),
]);

/** A bad `bodyLimit`, whichever way it is wrong. */
export const bodyLimitMessage = "must be a number of bytes, or a size like '32mb'";

/** What a key read from an unset environment variable is: `[process.env.SWITCHYARD_API_KEY]` gives `[undefined]`. */
const unsetKeyHint = 'is the environment variable you read it from (e.g. SWITCHYARD_API_KEY) set?';

const apiKeySchema = z
  .string({
    error: (issue) => (issue.input === undefined ? `is undefined — ${unsetKeyHint}` : `must be a string, not ${typeof issue.input}`),
  })
  .min(1, `is an empty string — ${unsetKeyHint}`);

/** Whether a value is a logger a request line can be written to (pino's `info(object, message)`). */
const hasInfo = (value: unknown) => typeof value === 'object' && value !== null && typeof (value as { info?: unknown }).info === 'function';

const BUILT_IN_STAGES = ['authenticate', 'police', 'fit', 'admit', 'call', 'record'];
const stageHook = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', 'a function').optional();

/** Users' stages: a unique name that is not a built-in's, hooks that are functions, a position against a built-in. */
const stagesSchema = z
  .array(
    z.object({
      name: z
        .string()
        .min(1)
        .refine((name) => !BUILT_IN_STAGES.includes(name), {
          error: `must not be a built-in stage's name (${BUILT_IN_STAGES.join(', ')})`,
        }),
      position: z
        .union(
          [
            z.strictObject({ before: z.enum(['fit', 'police', 'admit', 'call']) }),
            z.strictObject({ after: z.enum(['authenticate', 'fit', 'police', 'admit']) }),
          ],
          {
            error: "must be { before: 'fit' | 'police' | 'admit' | 'call' } or { after: 'authenticate' | 'fit' | 'police' | 'admit' }",
          },
        )
        .optional(),
      endpoints: z.array(z.enum(['generation', 'count_tokens', 'probe'])).optional(),
      before: stageHook,
      after: stageHook,
      watch: stageHook,
    }),
  )
  .superRefine((stages, context) => {
    const seen = new Set<string>();
    stages.forEach((stage, index) => {
      if (seen.has(stage.name))
        context.addIssue({
          code: 'custom',
          path: [index, 'name'],
          message: `stage name '${stage.name}' is used twice: names must be unique`,
        });
      seen.add(stage.name);
    });
  });

/** Every option of `gateway()`. */
export const optionsSchema = z.object({
  apiKeys: z
    .union([z.array(apiKeySchema), z.custom<ApiKeyVerifier>((value) => typeof value === 'function')], {
      error: 'must be a list of keys (strings) or a function (key) => boolean',
    })
    .optional(),
  requireApiKey: z.boolean().optional(),
  providers: z
    .record(
      z.string(),
      z.custom<ProviderAdapter | BuiltInProviderOptions>(
        (value) => typeof value === 'object' && value !== null,
        'an adapter or a provider configuration',
      ),
    )
    .optional(),
  models: z.array(modelConfigSchema).optional(),
  unavailableModels: z.array(z.strictObject({ id: z.string().min(1), reason: z.string().min(1) })).optional(),
  bodyLimit: z
    .union([z.number().int().positive(), z.string().regex(/^\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i, bodyLimitMessage)], { error: bodyLimitMessage })
    .optional(),
  diagnoseBaseUrl: z.boolean().optional(),
  logger: z.custom<Logger>((value) => typeof value === 'object' && value !== null).optional(),
  database: z
    .union([
      z.string().min(1),
      z.strictObject({ url: z.string().min(1), schema: z.string().optional() }),
      z.custom<Database>((value) => typeof value === 'object' && value !== null && 'db' in value, 'a database from openDatabase'),
    ])
    .optional(),
  redis: z
    .union([
      z.string().regex(/^rediss?:\/\//, 'a redis:// URL'),
      z.custom<object>((value) => typeof value === 'object' && value !== null, 'an ioredis client'),
    ])
    .optional(),
  redisPrefix: z.string().optional(),
  keyCacheTtlMs: z.number().int().nonnegative().optional(),
  adminKey: z.string().optional(),
  balances: balancesOptionsSchema.optional(),
  unusualSpend: unusualSpendOptionsSchema.optional(),
  allowedOrigins: z.array(z.string().min(1)).optional(),
  ledger: ledgerOptionsSchema.optional(),
  limits: limitsOptionsSchema.optional(),
  requestPolicy: requestPolicyOptionsSchema.optional(),
  requestLog: z
    .union(
      [
        z.boolean(),
        z.strictObject({
          logger: z.custom<object>(hasInfo, 'a pino logger').optional(),
          prompts: z.enum(['lengths', 'text']).optional(),
          file: z.string().min(1).optional(),
          flushMs: z.number().int().nonnegative().max(10_000).optional(),
          destination: z
            .custom<object>(
              (value) => typeof value === 'object' && value !== null && typeof (value as { write?: unknown }).write === 'function',
              'a stream (anything with write(text))',
            )
            .optional(),
        }),
        z.custom<object>(hasInfo, 'a pino logger'),
      ],
      { error: "must be true, false, a pino logger or { logger, prompts: 'lengths' | 'text', file, flushMs, destination }" },
    )
    .optional(),
  metrics: z.union([z.boolean(), z.strictObject({ keyLabels: z.union([z.boolean(), z.number().int().positive()]).optional() })]).optional(),
  tracing: z
    .union([
      z.boolean(),
      z.strictObject({
        tracer: z
          .custom<object>(
            (value) => typeof value === 'object' && value !== null && typeof (value as { startSpan?: unknown }).startSpan === 'function',
            'an OpenTelemetry tracer',
          )
          .optional(),
      }),
    ])
    .optional(),
  stages: stagesSchema.optional(),
  adapt: z.boolean().optional(),
  timeouts: timeoutOptionsSchema.optional(),
  retries: retryOptionsSchema.optional(),
  cooldowns: cooldownOptionsSchema.optional(),
});

/** The options `gateway()` knows: any other is warned about and ignored. */
export const knownKeys = new Set(Object.keys(optionsSchema.shape));
