import { listenForAbort, type Cancellation } from '../providers/transport/cancellation.js';

/** Waits `ms`, or less when `abort` fires. */
export function pause(ms: number, abort: Cancellation): Promise<void> {
  if (ms <= 0 || abort.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stop();
      resolve();
    }, ms);
    const stop = listenForAbort(abort, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
