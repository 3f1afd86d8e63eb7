import type { EventReader } from './event-reader.js';
import type { OpenedStream } from './read-ahead.js';

/** `opened`, telling `ended` once when its reader is stopped (the sender always stops it). */
export function trackedStream(opened: OpenedStream, ended: () => void): OpenedStream {
  const { rest } = opened;
  let done = false;
  const reader: EventReader = {
    next: () => rest.next(),
    stop: () => {
      if (!done) {
        done = true;
        ended();
      }
      return rest.stop();
    },
    ...(rest.fail === undefined ? {} : { fail: rest.fail }),
  };
  return { ...opened, rest: reader };
}
