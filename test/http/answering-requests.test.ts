import { describe, expect, it } from 'vitest';
import { AnsweringRequests } from '../../src/http/answering-requests.js';

/** Whether `promise` has settled once the queued reactions have run. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe('AnsweringRequests', () => {
  it('should settle at once when no request is being answered', async () => {
    const answering = new AnsweringRequests();
    answering.begin().ended();
    expect(await isSettled(answering.settled())).toBe(true);
  });

  it('should wait for every request begun before, and not for those begun after', async () => {
    const answering = new AnsweringRequests();
    const first = answering.begin();
    const second = answering.begin();
    const waited = answering.settled();
    const later = answering.begin();
    first.ended();
    expect(await isSettled(waited)).toBe(false);
    second.ended();
    expect(await isSettled(waited)).toBe(true);
    // The request begun after is in a cohort of its own, which the next call waits for.
    const next = answering.settled();
    expect(await isSettled(next)).toBe(false);
    later.ended();
    expect(await isSettled(next)).toBe(true);
  });
});
