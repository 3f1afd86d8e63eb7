import type { RecordStage, RequestRecord } from '../usage/record-stage.js';
import type { PriceUsage } from '../usage/ledger-stage.js';
import { summarisePrompt, type PromptLogging } from './prompt-summary.js';

/** What the request log writes to: a pino logger (or anything with pino's `info(object, message)`). */
export interface RequestLogger {
  info(object: object, message?: string): void;
}

export interface RequestLogStageOptions {
  logger: RequestLogger;
  /** Prices a request's usage, as the ledger does; the line has no `costUsd` when the price is unknown. */
  price?: PriceUsage | undefined;
  /** Whether the line shows the prompt, and how much of it. Default: never. */
  prompts?: PromptLogging | undefined;
}

/** The token counts of a line; only the counts the answer reported. */
interface LoggedTokens {
  input?: number;
  output?: number;
  cached?: number;
  reasoning?: number;
}

function tokensOf(record: RequestRecord): LoggedTokens | undefined {
  const { usage } = record;
  if (usage === undefined) return undefined;
  const tokens: LoggedTokens = {};
  if (usage.inputTokens !== undefined) tokens.input = usage.inputTokens;
  if (usage.outputTokens !== undefined) tokens.output = usage.outputTokens;
  if (usage.cachedInputTokens !== undefined) tokens.cached = usage.cachedInputTokens;
  if (usage.reasoningTokens !== undefined) tokens.reasoning = usage.reasoningTokens;
  return tokens;
}

/**
 * The line of one finished request: ids, where it went, how it ended, what it used and cost, how
 * long it took. Fields that are unknown are absent (never 0); never a key, and the prompt only
 * when `prompts` asks for it.
 */
export function requestLineOf(record: RequestRecord, price?: PriceUsage, prompts?: PromptLogging): Record<string, unknown> {
  const line: Record<string, unknown> = { requestId: record.requestId };
  const keyId = record.caller?.keyId;
  if (keyId !== undefined) line.keyId = keyId;
  if (record.caller?.token !== undefined) line.tokenId = record.caller.token.id;
  line.protocol = record.protocol;
  if (record.model !== undefined) line.model = record.model;
  if (record.deployment !== undefined) line.deployment = record.deployment;
  else if (record.provider !== undefined) line.provider = record.provider;
  line.stream = record.stream;
  line.attempts = record.attempts;
  line.status = record.status;
  if (record.errorCode !== undefined) line.errorCode = record.errorCode;
  const tokens = tokensOf(record);
  if (tokens !== undefined) line.tokens = tokens;
  const cost = record.usage === undefined ? undefined : price?.(record, record.usage);
  if (cost !== undefined) line.costUsd = cost.nanoUsd / 1e9;
  line.durationMs = record.durationMs;
  if (record.firstOutputMs !== undefined) line.firstTokenMs = record.firstOutputMs;
  if (record.overheadMs !== undefined) line.overheadMs = record.overheadMs;
  if (record.adaptations !== undefined && record.adaptations.length > 0) line.adaptations = record.adaptations;
  if (record.userAgent !== undefined) line.userAgent = record.userAgent;
  if (prompts !== undefined && record.request !== undefined) line.prompt = summarisePrompt(record.request, prompts);
  return line;
}

/** The "record" stage of the request log: one `info` line per finished request, `msg: "request"`. */
export function createRequestLogStage(options: RequestLogStageOptions): RecordStage {
  const { logger, price, prompts } = options;
  return {
    record(record) {
      logger.info(requestLineOf(record, price, prompts), 'request');
    },
  };
}
