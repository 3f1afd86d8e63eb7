import { formatLogLine } from '../logger.js';
import type { LineDestination } from './batched-lines.js';
import type { RequestLogger } from './request-log-stage.js';

/**
 * The gateway's own request lines (stdout, a file, the server's output), in the format of its other
 * lines and of pino's (`level`, `time` in ISO 8601, the fields, `msg`), each made by one
 * `JSON.stringify`: pino serialises a line key by key and formats its time each time, which cost a
 * request several microseconds. A host's own logger is given the fields instead, as before.
 */
export function createJsonLineWriter(destination: LineDestination): RequestLogger {
  return {
    info(object, message) {
      destination.write(`${formatLogLine('info', object, message, true)}\n`);
    },
  };
}
