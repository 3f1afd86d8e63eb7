import { performance } from 'node:perf_hooks';
import type { GatewayError } from '../canonical/index.js';
import { noteRequestId } from '../http/request-log-notes.js';
import { createRequestId } from '../http/request-id.js';
import { sendError, toGatewayError } from '../http/send-error.js';
import type { HttpResponse } from '../http/types.js';
import type { Logger } from '../logger.js';
import type { InboundCodec } from '../protocols/codec.js';
import { repeatedErrorLogOf } from './repeated-error-log.js';
import { RequestAbort } from '../providers/transport/cancellation.js';

/** How a request ended, for the "record" stage. */
export interface Ending {
  status: number;
  errorCode: string | undefined;
}

/** A request from its start: its id, its clock, and its cancellation when the client leaves. */
export class StartedRequest {
  /** `req_…`, sent back on every answer's headers and quoted in errors. */
  readonly requestId = createRequestId();
  /** Epoch milliseconds. */
  readonly startedAt = Date.now();
  /** `performance.now()` at the start, for sub-millisecond durations (the gateway's overhead). */
  readonly startedAtPrecise = performance.now();
  /** Fires when the client disconnects before the answer was finished, or when the gateway interrupts the request. */
  readonly abort = new RequestAbort();
  /** Its place among the open requests (`OpenRequests`), -1 while not there. */
  openAt = -1;
  /** True once the answer is a stream that began (its headers were sent). */
  streaming = false;
  /** Why the gateway ended the request itself (`interrupt`): the error its answer ends with. */
  interruption: GatewayError | undefined;

  constructor(res: HttpResponse) {
    noteRequestId(res, this.requestId);
    res.on('close', () => {
      if (!res.writableFinished) this.abort.abort();
    });
  }

  /**
   * Ends the request from the gateway's side (a shutdown): the upstream call is cancelled as when
   * the client leaves, but the answer ends with `error` in the caller's protocol — the in-band
   * error event of a stream that began, the error status of an answer that did not.
   */
  interrupt(error: GatewayError): void {
    if (this.abort.aborted) return;
    this.interruption = error;
    this.abort.abort();
  }

  /**
   * Answers a failure in the caller's protocol (status, error body, request id) and says how the
   * request ended. After the answer began, the only thing left to do is to end it. An interrupted
   * request is answered with the interruption, not with the cancellation it caused.
   */
  fail(res: HttpResponse, codec: InboundCodec, error: unknown, logger: Logger): Ending {
    const { interruption } = this;
    if (interruption === undefined && this.abort.aborted && !res.headersSent) return { status: 499, errorCode: 'CLIENT_CLOSED' };
    const gatewayError: GatewayError = interruption ?? toGatewayError(error, logger, this.requestId);
    if (res.headersSent) {
      res.end();
      return { status: res.statusCode, errorCode: gatewayError.code };
    }
    if (gatewayError.status >= 500) repeatedErrorLogOf(logger).warn(this.requestId, gatewayError);
    sendError(res, codec, gatewayError, this.requestId);
    return { status: gatewayError.status, errorCode: gatewayError.code };
  }
}
