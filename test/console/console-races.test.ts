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

async function usersIn(started: RunningConsole): Promise<{ email: string; is_admin: number }[]> {
  const db = await started.api.storage!();
  return db.selectFrom('console_users').select(['email', 'is_admin']).execute();
}

/** `count` visitors, each with its own pre-session and the register form's token, ready to post at once. */
async function visitorsAt(origin: string, count: number, from: string): Promise<{ visitor: ConsoleVisitor; csrf: string }[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const visitor = new ConsoleVisitor(origin);
      return { visitor, csrf: await visitor.csrf(from) };
    }),
  );
}

describe.each<StorageEngine>(['sqlite', 'postgres'])('console registration under concurrency (%s)', (engine) => {
  it('should make one admin of 8 simultaneous first registrations (open: the others are plain users)', async () => {
    const started = await start(engine);
    const visitors = await visitorsAt(started.origin, 8, '/register');
    const answers = await Promise.all(
      visitors.map(({ visitor, csrf }, n) =>
        visitor.postWith(csrf, '/register', { email: `racer${n}@example.com`, password: 'a long enough password' }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(303));
    const users = await usersIn(started);
    expect(users).toHaveLength(8);
    expect(users.filter((user) => Number(user.is_admin) === 1)).toHaveLength(1);
  });

  it('should let one of 8 simultaneous first registrations in when registration is closed', async () => {
    const started = await start(engine, { registration: 'closed' });
    const visitors = await visitorsAt(started.origin, 8, '/register');
    const answers = await Promise.all(
      visitors.map(({ visitor, csrf }, n) =>
        visitor.postWith(csrf, '/register', { email: `racer${n}@example.com`, password: 'a long enough password' }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 303)).toHaveLength(1);
    expect(answers.every((answer) => answer.status === 303 || answer.status === 403)).toBe(true);
    expect(await usersIn(started)).toEqual([expect.objectContaining({ is_admin: 1 })]);
  });

  it('should make one account of one invitation link used 8 times at once', async () => {
    const started = await start(engine, { registration: 'invite' });
    const admin = new ConsoleVisitor(started.origin);
    expect((await admin.post('/register', { email: 'admin@example.com', password: 'a long enough password' })).status).toBe(303);
    const made = await admin.post('/users/invite', {}, '/users');
    const invite = /register\?invite=([A-Za-z0-9_-]+)/.exec(made.text)?.[1] ?? '';
    expect(invite).not.toBe('');
    const visitors = await visitorsAt(started.origin, 8, `/register?invite=${invite}`);
    const answers = await Promise.all(
      visitors.map(({ visitor, csrf }, n) =>
        visitor.postWith(csrf, '/register', { email: `guest${n}@example.com`, password: 'a long enough password', invite }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 303)).toHaveLength(1);
    expect(await usersIn(started)).toHaveLength(2);
  });
});
