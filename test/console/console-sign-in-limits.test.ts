import { afterEach, describe, expect, it } from 'vitest';
import type { StorageEngine } from '../../src/storage/open-database.js';
import { ConsoleVisitor, startConsole, type RunningConsole } from '../helpers/console-visitor.js';

const running: RunningConsole[] = [];
afterEach(async () => {
  for (const console of running.splice(0)) await console.close();
});

async function start(engine: StorageEngine, options: Parameters<typeof startConsole>[1] = {}): Promise<RunningConsole> {
  const started = await startConsole(engine, options);
  running.push(started);
  return started;
}

describe.each<StorageEngine>(['sqlite', 'postgres'])('console sign-in limits under concurrency (%s)', (engine) => {
  it('should refuse the right password sent with 19 wrong ones at once, past the 5 attempts allowed', async () => {
    const started = await start(engine);
    const owner = new ConsoleVisitor(started.origin);
    expect((await owner.post('/register', { email: 'owner@example.com', password: 'the right password' })).status).toBe(303);
    const attempts = await Promise.all(
      Array.from({ length: 20 }, async (_, n) => {
        const visitor = new ConsoleVisitor(started.origin);
        return { visitor, csrf: await visitor.csrf('/sign-in'), password: n === 19 ? 'the right password' : `wrong password ${n}` };
      }),
    );
    const signIn = ({ visitor, csrf, password }: (typeof attempts)[number]) =>
      visitor.postWith(csrf, '/sign-in', { email: 'owner@example.com', password });
    // The 19 wrong ones at once; the right one once any of them is answered — while the others'
    // (slow) checks are still under way, so it must find them counted already.
    const wrong = attempts.slice(0, 19).map(signIn);
    await Promise.race(wrong);
    const answers = await Promise.all([...wrong, signIn(attempts[19]!)]);
    // Each attempt is counted before its (slow) check: at most the limit are checked at all, the rest are refused.
    expect(answers.filter((answer) => answer.status !== 429).length).toBeLessThanOrEqual(5);
    expect(answers[19]?.status).toBe(429);
    expect(answers[19]?.text).toContain('LOGIN_RATE_LIMITED');
  }, 120_000); // argon2 checks are slow on a loaded machine; unfixed, all 20 are checked
});

describe('console sign-in limits behind a trusted proxy', () => {
  it('should count the address the proxy saw, whatever the client wrote left of it in X-Forwarded-For', async () => {
    const started = await start('sqlite', { trustProxy: true, loginLimits: { perAccount: 100, perAddress: 3 } });
    const statuses: number[] = [];
    for (let n = 0; n < 4; n += 1) {
      const visitor = new ConsoleVisitor(started.origin);
      // The client writes a new address each time; the proxy appends the one it saw (always the same).
      const headers = { 'x-forwarded-for': `203.0.113.${n}, 198.51.100.7` };
      statuses.push(
        (await visitor.post('/sign-in', { email: `someone${n}@example.com`, password: 'not a password' }, '/sign-in', headers)).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Another address the proxy saw is not held back by it.
    const elsewhere = new ConsoleVisitor(started.origin);
    expect(
      (
        await elsewhere.post('/sign-in', { email: 'someone@example.com', password: 'not a password' }, '/sign-in', {
          'x-forwarded-for': '198.51.100.8',
        })
      ).status,
    ).toBe(401);
  });
});
