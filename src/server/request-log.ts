import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { readAnswerNote } from '../http/request-log-notes.js';
import type { RequestLogger } from '../observability/request-log-stage.js';

/** Where request lines go: stdout, or a test's collector. */
export interface RequestLogOutput {
  write(text: string): unknown;
}

/** One finished request the gateway does not record itself, as the log prints it. Never a key, a header or a body. */
export interface RequestLogEntry {
  readonly method: string;
  /** Without the query (a client may put a key there, as `?key=`). */
  readonly path: string;
  /** 499 when the client left before the answer began. */
  readonly status: number;
  /** The gateway's error code (`INVALID_API_KEY`, …) of a failed answer; `CLIENT_CLOSED` when the connection closed before the answer was finished. */
  readonly errorCode?: string;
  /** The configured model id, once the request named one that exists. */
  readonly model?: string;
  readonly durationMs: number;
  readonly requestId?: string;
}

const PATH_MAX = 200;

/** The path of `url` as printed: no query, control characters escaped, at most 200 characters. */
export function printablePath(url: string): string {
  const query = url.indexOf('?');
  let path = query === -1 ? url : url.slice(0, query);
  if (path.length > PATH_MAX) path = `${path.slice(0, PATH_MAX)}…`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped.
  return path.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Starts watching one request; its line is written when its connection is done with it. */
export type RequestLog = (req: IncomingMessage, res: ServerResponse) => void;

/** Probes the server answers itself: logged only when `withProbes` (at `debug`), so a load balancer does not fill the log. */
const PROBES = new Set(['/health', '/ready', '/metrics']);

/**
 * The standalone server's lines for the requests the gateway does not record itself (404s, model
 * lists, the admin API, probes): one `info` line each on `logger`, `msg: "request"`, as the gateway's
 * request log writes generation requests — so each request has exactly one line in one log.
 */
export function createRequestLog(logger: RequestLogger, withProbes: boolean): RequestLog {
  return (req, res) => {
    const url = req.url ?? '/';
    const path = printablePath(url);
    if (!withProbes && PROBES.has(path)) return;
    const method = req.method ?? 'UNKNOWN';
    const start = performance.now();
    res.once('close', () => {
      const note = readAnswerNote(res);
      if (note.recorded) return;
      const finished = res.writableFinished;
      const errorCode = note.errorCode ?? (finished ? undefined : 'CLIENT_CLOSED');
      const entry: RequestLogEntry = {
        ...(note.requestId === undefined ? {} : { requestId: note.requestId }),
        method,
        path,
        status: finished || res.headersSent ? res.statusCode : 499,
        ...(errorCode === undefined ? {} : { errorCode }),
        ...(note.model === undefined ? {} : { model: note.model }),
        durationMs: Math.round(performance.now() - start),
      };
      logger.info(entry, 'request');
    });
  };
}
