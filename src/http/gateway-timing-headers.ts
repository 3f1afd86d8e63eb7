import { addAnswerHeader } from './answer-headers.js';
import type { HttpResponse } from './types.js';

/** The header with the gateway's own time before the answer's first byte, outside the upstream call, in ms. */
export const OVERHEAD_HEADER = 'x-switchyard-overhead-ms';
/** The header naming the deployment that served the answer (`<provider>/<upstream model>`). */
export const DEPLOYMENT_HEADER = 'x-switchyard-deployment';

/**
 * Adds the overhead and the deployment to the answer's headers (written in its one `writeHead`);
 * returns the overhead, rounded to hundredths of a millisecond.
 */
export function addGatewayTimingHeaders(res: HttpResponse, overheadMs: number, deployment: string | undefined): number {
  const rounded = Math.max(0, Math.round(overheadMs * 100) / 100);
  addAnswerHeader(res, OVERHEAD_HEADER, String(rounded));
  if (deployment !== undefined) addAnswerHeader(res, DEPLOYMENT_HEADER, deployment);
  return rounded;
}
