import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleVisitor, startConsole, type RunningConsole } from '../helpers/console-visitor.js';

const running: RunningConsole[] = [];
afterEach(async () => {
  for (const console of running.splice(0)) await console.close();
});

describe('an address listed in `admins`, with open registration', () => {
  it('should not be taken by whoever registers it first: it needs an invitation link an admin made', async () => {
    const started = await startConsole('sqlite', { registration: 'open', admins: ['boss@example.com'] });
    running.push(started);
    const first = new ConsoleVisitor(started.origin);
    expect((await first.post('/register', { email: 'first@example.com', password: 'a long enough password' })).status).toBe(303);

    const squatter = new ConsoleVisitor(started.origin);
    const squatted = await squatter.post('/register', { email: 'Boss@Example.com', password: 'a squatter password' });
    expect(squatted.status).toBe(400);
    expect(squatted.text).toContain('registers only with an invitation link');
    const db = await started.api.storage!();
    expect(await db.selectFrom('console_users').select('email').where('email', '=', 'boss@example.com').executeTakeFirst()).toBeUndefined();

    // Other addresses still register openly, as plain users.
    const plain = new ConsoleVisitor(started.origin);
    expect((await plain.post('/register', { email: 'plain@example.com', password: 'a long enough password' })).status).toBe(303);
    expect((await plain.get('/keys')).text).not.toContain('(admin)');

    const made = await first.post('/users/invite', {}, '/users');
    const invite = /register\?invite=([A-Za-z0-9_-]+)/.exec(made.text)?.[1] ?? '';
    expect(invite).not.toBe('');
    const boss = new ConsoleVisitor(started.origin);
    expect(
      (await boss.post('/register', { email: 'boss@example.com', password: 'the boss password', invite }, `/register?invite=${invite}`))
        .status,
    ).toBe(303);
    expect((await boss.get('/keys')).text).toContain('boss@example.com (admin)');
  });
});
