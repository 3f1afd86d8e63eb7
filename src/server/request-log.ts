import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { readAnswerNote } from '../http/answer-note.js';
import { formatLogLine } from '../logger.js';
import { logsAt, type LogLevel } from './log-level.js';

/** Where request lines go: stdout, or a test's collector. */
export interface RequestLogOutput {
  write(text: string): unknown;
  /** Readable lines on a terminal, JSON lines otherwise. */
  readonly isTTY?: boolean;
}

/** One finished request, as the log prints it. Never a key, a header or a body. */
export interface RequestLogEntry {
  readonly method: string;
  /** Without the query (a client may put a key there, as `?key=`). */
  readonly path: string;
  /** 499 when the client left before the answer began. */
  readonly status: number;
  /** The gateway's error code (`INVALID_API_KEY`, …) of a failed answer or of a stream's in-band error; `CLIENT_CLOSED` when the connection closed before the answer was finished. */
  readonly errorCode: string | undefined;
  /** The configured model id, once the request named one that exists. */
  readonly model: string | undefined;
  readonly durationMs: number;
  readonly requestId: string | undefined;
}

const PATH_MAX = 200;

/** The path of `url` as printed: no query, control characters escaped, at most 200 characters. */
export function printablePath(url: string): string {
  const query = url.indexOf('?');
  let path = query === -1 ? url : url.slice(0, query);
  if (path.length > PATH_MAX) path = `${path.slice(0, PATH_MAX)}…`;
  // eslint-disable-next-line no-control-regex
  return path.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

const twoDigits = (value: number) => (value < 10 ? `0${value}` : String(value));

/**
 * A request line: on a terminal `10:31:02 POST /v1/chat/completions 401 INVALID_API_KEY 3ms req_…`
 * (local time; the error code and the model only when there are), elsewhere a JSON line with the
 * same fields, in the shape of the gateway's log lines (`level`, `time`, …, `msg: "request"`).
 */
export function formatRequestLine(entry: RequestLogEntry, tty: boolean, now = new Date()): string {
  if (!tty) return `${formatLogLine('info', entry, 'request')}\n`;
  const time = `${twoDigits(now.getHours())}:${twoDigits(now.getMinutes())}:${twoDigits(now.getSeconds())}`;
  const code = entry.errorCode === undefined ? '' : ` ${entry.errorCode}`;
  const model = entry.model === undefined ? '' : ` ${entry.model}`;
  const id = entry.requestId === undefined ? '' : ` ${entry.requestId}`;
  return `${time} ${entry.method} ${entry.path} ${entry.status}${code}${model} ${entry.durationMs}ms${id}\n`;
}

/** Starts watching one request; its line is written when its connection is done with it. */
export type RequestLog = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The standalone server's request log: one line per request at level `info` (`GET /health` only at
 * `debug`, so a load balancer's probes do not fill it), written to `output` once the answer is sent
 * or the connection closed. Undefined when `level` prints no request lines: the server then adds
 * nothing to a request's path.
 */
export function createRequestLog(level: LogLevel, output: RequestLogOutput): RequestLog | undefined {
  if (!logsAt(level, 'info')) return undefined;
  const tty = output.isTTY === true;
  const withHealth = logsAt(level, 'debug');
  return (req, res) => {
    const url = req.url ?? '/';
    if (!withHealth && url === '/health') return;
    const method = req.method ?? 'UNKNOWN';
    const start = performance.now();
    res.once('close', () => {
      const finished = res.writableFinished;
      const note = readAnswerNote(res);
      const entry: RequestLogEntry = {
        method,
        path: printablePath(url),
        status: finished || res.headersSent ? res.statusCode : 499,
        errorCode: note.errorCode ?? (finished ? undefined : 'CLIENT_CLOSED'),
        model: note.model,
        durationMs: Math.round(performance.now() - start),
        requestId: note.requestId,
      };
      output.write(formatRequestLine(entry, tty));
    });
  };
}
