import type { HttpResponse } from './types.js';

const REQUEST_ID = Symbol('switchyard.note.requestId');
const ERROR_CODE = Symbol('switchyard.note.errorCode');
const MODEL = Symbol('switchyard.note.model');
const RECORDED = Symbol('switchyard.note.recorded');

type Noted = HttpResponse & { [REQUEST_ID]?: string; [ERROR_CODE]?: string; [MODEL]?: string; [RECORDED]?: true };

/**
 * What the gateway knows of an answer that its headers do not tell a listener on the response (Node
 * keeps no readable copy of headers written with `writeHead(status, object)`), for a request log
 * outside the gateway: the standalone server's. Kept on symbol properties of the response, never sent.
 */
export interface AnswerNote {
  /** `req_…`, as sent in `x-request-id`; undefined for answers the gateway did not make. */
  readonly requestId: string | undefined;
  /** The GatewayError code of a failed answer, or of a stream's in-band error. */
  readonly errorCode: string | undefined;
  /** The configured model id the request resolved to. */
  readonly model: string | undefined;
  /** True for a generation request: the gateway's "record" stage (its request log) learns of it. */
  readonly recorded: boolean;
}

/** Notes the request id an answer carries; every answer the gateway writes calls it. */
export function noteRequestId(res: HttpResponse, requestId: string): void {
  (res as Noted)[REQUEST_ID] = requestId;
}

/** Notes the code of the error an answer reports. */
export function noteErrorCode(res: HttpResponse, code: string): void {
  (res as Noted)[ERROR_CODE] = code;
}

/** Notes the configured model id a request resolved to. */
export function noteModel(res: HttpResponse, model: string): void {
  (res as Noted)[MODEL] = model;
}

/** Notes that the gateway records this request itself (a generation request). */
export function noteRecorded(res: HttpResponse): void {
  (res as Noted)[RECORDED] = true;
}

/** What was noted for `res`. */
export function readAnswerNote(res: HttpResponse): AnswerNote {
  const noted = res as Noted;
  return { requestId: noted[REQUEST_ID], errorCode: noted[ERROR_CODE], model: noted[MODEL], recorded: noted[RECORDED] === true };
}
