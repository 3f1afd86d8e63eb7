import { findClosestId, type ErrorCode } from '../../canonical/index.js';
import { call, type CallResult, type CallOptions } from './check-http.js';
import {
  bodyOf,
  CAPABILITIES,
  CAPABILITY_LABEL,
  ENDPOINT,
  errorCodeOf,
  errorMessageOf,
  headersOf,
  verify,
  type Capability,
  type CheckProtocol,
} from './check-steps.js';

export interface CheckOptions {
  baseUrl: string;
  key: string;
  model: string;
  protocols: readonly CheckProtocol[];
  /** Each request's limit, ms (a stream: until its end). */
  timeoutMs: number;
  /** 429s retried per request, after waiting. Default 3. */
  maxRetries?: number;
  /** Longest wait for one 429, ms. Default 30000. */
  maxWaitMs?: number;
}

export type StepStatus = 'ok' | 'failed' | 'skipped';

export interface CheckStep {
  protocol: CheckProtocol;
  capability: Capability;
  status: StepStatus;
  /** The HTTP status of the answer, when one came. */
  httpStatus?: number;
  ms?: number;
  /** Why it failed or was skipped, in plain words. */
  detail?: string;
}

/** Something the check found wrong, with what to do. */
export interface Diagnosis {
  code:
    | 'KEY_HAS_BEARER_PREFIX'
    /** The gateway's own codes for the same base-URL mistakes (it answers them itself), and the one it cannot see. */
    | Extract<ErrorCode, 'DOUBLE_V1_PATH' | 'MISSING_V1_PATH'>
    | 'EXTRA_V1_PATH'
    | 'KEY_REFUSED'
    | 'UNKNOWN_MODEL'
    | 'RATE_LIMITED'
    | 'TIMEOUT'
    | 'ENDPOINT_NOT_SERVED'
    | 'UPSTREAM_FAILED'
    | 'UNREACHABLE';
  message: string;
}

export interface CheckResult {
  /** True only when every step asked for worked, as given (no base URL or key to fix). */
  ok: boolean;
  baseUrl: { given: string; used: string };
  model: string;
  protocols: readonly CheckProtocol[];
  steps: CheckStep[];
  diagnoses: Diagnosis[];
}

const V1 = '/v1';
const withoutSlash = (url: string) => url.replace(/\/+$/, '');

/** Base URLs to try when the given one finds nothing: with `/v1` added, or without it. */
function alternativesOf(base: string): string[] {
  return base.endsWith(V1) ? [base.slice(0, -V1.length)] : [`${base}${V1}`];
}

/** The `/v1` mistake moving from `given` to `right` is. */
function baseUrlDiagnosis(given: string, right: string): Diagnosis {
  if (given.endsWith('/v1/v1')) {
    return { code: 'DOUBLE_V1_PATH', message: `The base URL ends in /v1/v1: /v1 is there twice. Use ${right}` };
  }
  return right.length > given.length
    ? {
        code: 'MISSING_V1_PATH',
        message: `The base URL is missing /v1: nothing is served at ${given}/chat/completions and the like. Use ${right} (clients that add /v1 themselves, such as ANTHROPIC_BASE_URL for Claude Code, take ${given}).`,
      }
    : { code: 'EXTRA_V1_PATH', message: `This gateway serves its API without /v1. Use ${right}` };
}

/**
 * The capability ladder: a minimal non-streaming request on each protocol asked for, then
 * streaming, a tool call and image input on each protocol whose minimal request worked — one
 * request at a time. `progress` hears of each step as it starts and ends.
 */
export async function runCheck(options: CheckOptions, progress: (line: string) => void = () => undefined): Promise<CheckResult> {
  const diagnoses: Diagnosis[] = [];
  const diagnose = (diagnosis: Diagnosis) => {
    if (!diagnoses.some((known) => known.code === diagnosis.code)) diagnoses.push(diagnosis);
  };
  const given = withoutSlash(options.baseUrl);
  let key = options.key.trim();
  const bearer = /^bearer\s+/i.exec(key);
  if (bearer !== null) {
    key = key.slice(bearer[0].length).trim();
    diagnose({
      code: 'KEY_HAS_BEARER_PREFIX',
      message:
        "The key starts with 'Bearer ': give the key alone. Clients add 'Bearer ' themselves, so the gateway would receive 'Bearer Bearer …'.",
    });
  }
  /** Messages from the gateway, without the key if one echoes it. */
  const clean = (text: string) => (key.length >= 4 ? text.split(key).join('***') : text).slice(0, 300);
  const settings: CallOptions = {
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries ?? 3,
    maxWaitMs: options.maxWaitMs ?? 30_000,
    onBackoff: (waitMs, attempt) => progress(`  429 rate limited: waiting ${(waitMs / 1000).toFixed(1)} s before retry ${attempt}`),
  };

  let base = given;
  if (given.endsWith('/v1/v1')) {
    base = given.slice(0, -V1.length);
    diagnose(baseUrlDiagnosis(given, base));
  }
  let baseSettled = base !== given;

  // The models the gateway lists (when it lists them): to name the closest id to an unknown one, and to find the base URL.
  const listModels = (at: string) =>
    call(`${at}/models`, { headers: { authorization: `Bearer ${key}`, 'x-api-key': key, 'anthropic-version': '2023-06-01' } }, settings);
  let listed: string[] | undefined;
  const readIds = (result: CallResult) => {
    if (result.kind !== 'answer' || result.status !== 200) return undefined;
    const data = (result.json as { data?: unknown } | undefined)?.data;
    return Array.isArray(data)
      ? data.map((entry) => (entry as { id?: unknown }).id).filter((id): id is string => typeof id === 'string')
      : undefined;
  };
  progress(`Checking ${given} with model '${options.model}' (${options.protocols.join(', ')})`);
  const models = await listModels(base);
  if (models.kind === 'unreachable') {
    diagnose({
      code: 'UNREACHABLE',
      message: `Nothing answers at ${base} (${models.reason}): check the host and port, and that the gateway is running.`,
    });
  } else if (models.kind === 'answer' && models.status === 404 && !baseSettled) {
    for (const alternative of alternativesOf(base)) {
      const other = await listModels(alternative);
      if (other.kind === 'answer' && other.status !== 404) {
        diagnose(baseUrlDiagnosis(given, alternative));
        base = alternative;
        baseSettled = true;
        listed = readIds(other);
        break;
      }
    }
  } else {
    listed = readIds(models);
    if (models.kind === 'answer' && models.status !== 404) baseSettled = true;
  }

  const steps: CheckStep[] = [];
  let stopped = diagnoses.some((diagnosis) => diagnosis.code === 'UNREACHABLE');
  const minimalWorked = new Set<CheckProtocol>();

  const send = (at: string, protocol: CheckProtocol, capability: Capability) =>
    call(
      `${at}${ENDPOINT[protocol]}`,
      { method: 'POST', headers: headersOf(protocol, key), body: JSON.stringify(bodyOf(protocol, capability, options.model)) },
      settings,
    );

  /** An answer saying the model id is unknown: only a first request can say so (a model that answered once exists). */
  const isModelError = (result: Extract<CallResult, { kind: 'answer' }>, capability: Capability) => {
    if (capability !== 'minimal' || (result.status !== 404 && result.status !== 400) || listed?.includes(options.model)) return false;
    const code = errorCodeOf(result.json) ?? '';
    if (/_V1_PATH$/.test(code)) return false;
    if (/model_not_found|unknown_model|model_not_exist|invalid_model/i.test(code)) return true;
    const message = errorMessageOf(result.json, result.text);
    return /\bmodel\b/i.test(message) && /not exist|not found|unknown|invalid|no such|not available/i.test(message);
  };

  const unknownModel = async () => {
    listed ??= readIds(await listModels(base));
    const closest = listed === undefined ? undefined : findClosestId(options.model, listed);
    const known =
      listed === undefined
        ? ''
        : listed.length === 0
          ? ' It lists no models.'
          : ` It lists ${listed.length} model${listed.length === 1 ? '' : 's'}${closest === undefined ? `: ${listed.slice(0, 10).join(', ')}` : ''}.`;
    diagnose({
      code: 'UNKNOWN_MODEL',
      message: `The gateway does not know the model '${options.model}'.${closest === undefined ? '' : ` The closest id it lists is '${closest}'.`}${known}`,
    });
  };

  /** A 404 that is not about the model, or a gateway's own diagnosis of a wrong base URL (ours answers Messages clients with a 400). */
  const isWrongPath = (result: CallResult) =>
    result.kind === 'answer' &&
    ((result.status === 404 && !isModelError(result, 'minimal')) ||
      /^(DOUBLE_V1_PATH|MISSING_V1_PATH)$/i.test(errorCodeOf(result.json) ?? '') ||
      (result.status === 400 &&
        /base URL/i.test(errorMessageOf(result.json, result.text)) &&
        /\/v1/.test(errorMessageOf(result.json, result.text))));

  /** One step's outcome from its answer. */
  const judge = async (protocol: CheckProtocol, capability: Capability, result: CallResult): Promise<CheckStep> => {
    const step = { protocol, capability };
    const seconds = Math.round(options.timeoutMs / 100) / 10;
    if (result.kind === 'timeout') {
      diagnose({
        code: 'TIMEOUT',
        message: `Requests got no (complete) answer within ${seconds} s: the gateway or its provider is stuck or slow. Raise --timeout if the model is just slow.`,
      });
      return { ...step, status: 'failed', ms: result.ms, detail: `no answer within ${seconds} s` };
    }
    if (result.kind === 'unreachable') {
      diagnose({
        code: 'UNREACHABLE',
        message: `Nothing answers at ${base} (${result.reason}): check the host and port, and that the gateway is running.`,
      });
      stopped = true;
      return { ...step, status: 'failed', ms: result.ms, detail: `cannot connect (${result.reason})` };
    }
    const { status, ms } = result;
    const said = clean(errorMessageOf(result.json, result.text));
    if (status >= 200 && status < 300) {
      const wrong = verify(protocol, capability, result.text, result.json);
      return wrong === undefined
        ? { ...step, status: 'ok', httpStatus: status, ms }
        : { ...step, status: 'failed', httpStatus: status, ms, detail: wrong };
    }
    const failed = (detail: string): CheckStep => ({ ...step, status: 'failed', httpStatus: status, ms, detail });
    if (status === 401) {
      diagnose({
        code: 'KEY_REFUSED',
        message: `The gateway refused the key (401): it is not a key this gateway knows, or it was revoked or expired. Use a key of this gateway (not a provider's key). The gateway said: ${said}`,
      });
      stopped = true;
      return failed(`key refused (401): ${said}`);
    }
    if (isModelError(result, capability)) {
      await unknownModel();
      stopped = true;
      return failed(`unknown model (${status}): ${said}`);
    }
    if (status === 429) {
      diagnose({
        code: 'RATE_LIMITED',
        message: `The gateway kept answering 429 (rate limited) after ${result.retries} retr${result.retries === 1 ? 'y' : 'ies'} with backoff: the key's or the provider's limit is reached. Wait, or raise the limit.`,
      });
      return failed(`rate limited (429) after ${result.retries} retries: ${said}`);
    }
    if (status === 404) {
      diagnose({
        code: 'ENDPOINT_NOT_SERVED',
        message: `The gateway does not serve every endpoint asked for (404): see the table. Check it with --protocol for the ones it serves.`,
      });
      return failed(`not served (404) at ${base}${ENDPOINT[protocol]}: ${said}`);
    }
    if (status >= 500) {
      diagnose({
        code: 'UPSTREAM_FAILED',
        message: `The gateway or its provider failed (HTTP 5xx): not a problem of your setup. Look at the gateway's logs or status page, or try again later.`,
      });
      return failed(`the gateway or its provider failed (${status}): ${said}`);
    }
    if (capability === 'image') return failed(`image input refused (${status}): ${said}`);
    if (capability === 'tools') return failed(`tool call refused (${status}): ${said}`);
    return failed(`refused (${status}): ${said}`);
  };

  for (const capability of CAPABILITIES) {
    for (const protocol of options.protocols) {
      const label = `${protocol.padEnd(9)} ${CAPABILITY_LABEL[capability]}`;
      if (stopped || (capability !== 'minimal' && !minimalWorked.has(protocol))) {
        steps.push({
          protocol,
          capability,
          status: 'skipped',
          detail: stopped ? 'stopped: see the problems below' : 'the minimal request failed',
        });
        continue;
      }
      progress(`  ${label} …`);
      let result = await send(base, protocol, capability);
      // A 404 that is not about the model, before the base URL was confirmed: try it with /v1 added or removed.
      if (!baseSettled && isWrongPath(result)) {
        for (const alternative of alternativesOf(base)) {
          const other = await send(alternative, protocol, capability);
          if (other.kind === 'answer' && other.status !== 404) {
            diagnose(baseUrlDiagnosis(given, alternative));
            base = alternative;
            result = other;
            break;
          }
        }
      }
      if (result.kind === 'answer' && result.status !== 404) baseSettled = true;
      const step = await judge(protocol, capability, result);
      if (capability === 'minimal' && step.status === 'ok') minimalWorked.add(protocol);
      steps.push(step);
      progress(
        `  ${label} ${step.status === 'ok' ? 'ok' : `FAILED: ${step.detail ?? ''}`}${step.ms === undefined ? '' : ` (${step.ms} ms)`}`,
      );
    }
  }
  return {
    ok: diagnoses.length === 0 && steps.every((step) => step.status === 'ok'),
    baseUrl: { given, used: base },
    model: options.model,
    protocols: options.protocols,
    steps,
    diagnoses,
  };
}
