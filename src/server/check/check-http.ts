/** What one HTTP call of `switchyard check` came back with. */
export type CallResult =
  | { kind: 'answer'; status: number; headers: Headers; text: string; json: unknown; ms: number; retries: number }
  | { kind: 'timeout'; ms: number; retries: number }
  | { kind: 'unreachable'; reason: string; ms: number; retries: number };

export interface CallOptions {
  timeoutMs: number;
  /** 429s retried after waiting (the `retry-after`, else 1, 2, 4 s …). */
  maxRetries: number;
  /** Caps one wait, ms. */
  maxWaitMs: number;
  /** Told of each wait, to print it. */
  onBackoff?: (waitMs: number, attempt: number) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** How long a 429 asks to wait: `retry-after` (seconds or a date), else doubling from 1 s. */
function waitOf(headers: Headers, attempt: number, maxWaitMs: number): number {
  const header = headers.get('retry-after');
  const seconds = header === null ? Number.NaN : Number(header);
  const asked = Number.isFinite(seconds) ? seconds * 1000 : header === null ? Number.NaN : Date.parse(header) - Date.now();
  return Math.min(maxWaitMs, Math.max(0, Number.isFinite(asked) ? asked : 1000 * 2 ** attempt));
}

/** The network failure in a few words (`ECONNREFUSED`, a DNS miss …). */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/**
 * One request, plain `fetch` (the gateway under test may be anyone's), read to its end within
 * `timeoutMs`; a 429 is waited out and retried, one request at a time.
 */
export async function call(url: string, init: RequestInit, settings: CallOptions): Promise<CallResult> {
  const started = Date.now();
  for (let retries = 0; ; retries += 1) {
    let answer: Response;
    let text: string;
    try {
      answer = await fetch(url, { ...init, signal: AbortSignal.timeout(settings.timeoutMs) });
      text = await answer.text();
    } catch (error) {
      const name = (error as Error).name;
      const ms = Date.now() - started;
      if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'timeout', ms, retries };
      return { kind: 'unreachable', reason: reasonOf(error), ms, retries };
    }
    if (answer.status === 429 && retries < settings.maxRetries) {
      const wait = waitOf(answer.headers, retries, settings.maxWaitMs);
      settings.onBackoff?.(wait, retries + 1);
      await sleep(wait);
      continue;
    }
    return { kind: 'answer', status: answer.status, headers: answer.headers, text, json: parse(text), ms: Date.now() - started, retries };
  }
}

/** The `data:` payloads of an SSE body, parsed where they are JSON (`[DONE]` stays a string). */
export function sseData(text: string): unknown[] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .map((data) => parse(data) ?? data);
}
