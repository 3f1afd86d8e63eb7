import { listenForAbort, type Cancellation } from '../providers/transport/request-abort.js';

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

/** `promise`, or a rejection after `ms`. */
export function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the cooldown store did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
