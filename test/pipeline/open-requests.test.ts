import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/canonical/index.js';
import type { HttpResponse } from '../../src/http/types.js';
import { OpenRequests } from '../../src/pipeline/open-requests.js';
import { StartedRequest } from '../../src/pipeline/start-request.js';

/** A request as the endpoint starts one; its response only needs to take a listener and a header. */
function started(): StartedRequest {
  const res = Object.assign(new EventEmitter(), { setHeader() {}, writableFinished: false });
  return new StartedRequest(res as unknown as HttpResponse);
}

const shutdown = () => new GatewayError({ code: 'SHUTTING_DOWN', message: 'going away' });

describe('OpenRequests', () => {
  it('interrupts the requests still open, whatever order the others left in', () => {
    const open = new OpenRequests();
    const requests = Array.from({ length: 5 }, started);
    for (const request of requests) open.add(request);
    open.delete(requests[1]!);
    open.delete(requests[4]!);
    open.delete(requests[1]!); // twice: nothing more happens
    expect(open.counts()).toEqual({ requests: 3, streams: 0 });
    requests[2]!.streaming = true;
    expect(open.counts()).toEqual({ requests: 3, streams: 1 });

    expect(open.interrupt(shutdown())).toBe(3);
    expect(requests.map((request) => request.interruption?.code)).toEqual([
      'SHUTTING_DOWN',
      undefined,
      'SHUTTING_DOWN',
      'SHUTTING_DOWN',
      undefined,
    ]);
    expect(open.counts().requests).toBe(0);
    // Leaving after the interruption changes nothing.
    open.delete(requests[0]!);
    expect(open.counts().requests).toBe(0);
  });

  it('refuses requests that come after an interruption, interrupting them too', () => {
    const open = new OpenRequests();
    open.interrupt(shutdown());
    const late = started();
    expect(() => open.add(late)).toThrow(expect.objectContaining({ code: 'SHUTTING_DOWN' }));
    expect(late.interruption?.code).toBe('SHUTTING_DOWN');
    expect(open.counts().requests).toBe(0);
  });
});
