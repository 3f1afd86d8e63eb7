import type { Recorder, RequestRecord } from '../usage/record-stage.js';
import type { PriceUsage } from '../usage/ledger-stage.js';
import { summarisePrompt, type PromptLogging } from './prompt-summary.js';
import { isoTime } from '../logger.js';
import type { LineDestination } from './batched-lines.js';
import { jsonName, jsonNumber, jsonString } from './json-text.js';

/** What the request log writes to: a pino logger (or anything with pino's `info(object, message)`). */
export interface RequestLogger {
  info(object: object, message?: string): void;
}

export type RequestLogStageOptions = RequestLineOptions &
  ({ logger: RequestLogger; lines?: undefined } | { logger?: undefined; lines: LineDestination });

interface RequestLineOptions {
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

/**
 * `requestLineOf(record, price, prompts)` as JSON text, without its braces: for the gateway's own
 * lines, which skip building the object (the same fields in the same order; tested against it).
 */
export function requestLineText(record: RequestRecord, price?: PriceUsage, prompts?: PromptLogging): string {
  let text = `"requestId":${jsonString(record.requestId)}`;
  const { caller } = record;
  if (caller?.keyId !== undefined) text += `,"keyId":${jsonName(caller.keyId)}`;
  if (caller?.token !== undefined) text += `,"tokenId":${jsonName(caller.token.id)}`;
  text += `,"protocol":${jsonName(record.protocol)}`;
  if (record.model !== undefined) text += `,"model":${jsonName(record.model)}`;
  if (record.deployment !== undefined) text += `,"deployment":${jsonName(record.deployment)}`;
  else if (record.provider !== undefined) text += `,"provider":${jsonName(record.provider)}`;
  text += `,"stream":${record.stream},"attempts":${jsonNumber(record.attempts)},"status":${jsonNumber(record.status)}`;
  if (record.errorCode !== undefined) text += `,"errorCode":${jsonName(record.errorCode)}`;
  const { usage } = record;
  if (usage !== undefined) {
    let tokens = '';
    if (usage.inputTokens !== undefined) tokens += `,"input":${jsonNumber(usage.inputTokens)}`;
    if (usage.outputTokens !== undefined) tokens += `,"output":${jsonNumber(usage.outputTokens)}`;
    if (usage.cachedInputTokens !== undefined) tokens += `,"cached":${jsonNumber(usage.cachedInputTokens)}`;
    if (usage.reasoningTokens !== undefined) tokens += `,"reasoning":${jsonNumber(usage.reasoningTokens)}`;
    text += `,"tokens":{${tokens.slice(1)}}`;
    const cost = price?.(record, usage);
    if (cost !== undefined) text += `,"costUsd":${jsonNumber(cost.nanoUsd / 1e9)}`;
  }
  text += `,"durationMs":${jsonNumber(record.durationMs)}`;
  if (record.firstOutputMs !== undefined) text += `,"firstTokenMs":${jsonNumber(record.firstOutputMs)}`;
  if (record.overheadMs !== undefined) text += `,"overheadMs":${jsonNumber(record.overheadMs)}`;
  if (record.adaptations !== undefined && record.adaptations.length > 0)
    text += `,"adaptations":[${record.adaptations.map(jsonString).join(',')}]`;
  if (record.userAgent !== undefined) text += `,"userAgent":${jsonString(record.userAgent)}`;
  if (prompts !== undefined && record.request !== undefined)
    text += `,"prompt":${JSON.stringify(summarisePrompt(record.request, prompts))}`;
  return text;
}

/**
 * The "record" stage of the request log: one `info` line per finished request, `msg: "request"`,
 * given to `logger`, or written as a JSON line to `lines` (the gateway's own stdout, file or stream).
 */
export function createRequestLogStage(options: RequestLogStageOptions): Recorder {
  const { logger, lines, price, prompts } = options;
  if (lines !== undefined) {
    return {
      record(record) {
        lines.write(`{"level":"info","time":"${isoTime()}",${requestLineText(record, price, prompts)},"msg":"request"}\n`);
      },
    };
  }
  return {
    record(record) {
      logger.info(requestLineOf(record, price, prompts), 'request');
    },
  };
}
