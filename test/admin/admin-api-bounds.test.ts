import { describe, expect, it } from 'vitest';
import { configFileSchema } from '../../src/server/config-schema.js';
import { parseCliArgs } from '../../src/server/parse-cli-args.js';
import { ConsoleVisitor, startConsole } from '../helpers/console-visitor.js';
import { startGateway, type RunningGateway } from '../helpers/start-gateway.js';
import { useScratch } from '../helpers/scratch.js';

const ADMIN_KEY = 'admin-0123456789abcdef';
const scratch = useScratch();

async function serve(): Promise<RunningGateway> {
  const running = await startGateway({ database: scratch.file('bounds'), adminKey: ADMIN_KEY });
  scratch.later(() => running.gateway.close());
  scratch.later(() => running.close());
  await running.gateway.ready();
  return running;
}

async function admin(running: RunningGateway, method: string, path: string, body?: unknown) {
  const response = await fetch(`${running.root}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { error?: { message: string; code: string; param?: string } } & Record<string, unknown>,
  };
}

describe('the admin API with input out of bounds', () => {
  it('should answer a malformed percent-encoding in a key id with a 400, not a 500', async () => {
    const running = await serve();
    const answer = await admin(running, 'DELETE', '/admin/keys/%E0%A4%A');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'admin_request_invalid' });
    expect(answer.body.error?.message).toContain('percent-encoding');
    // A well-formed id that names no key is still a 404.
    expect((await admin(running, 'DELETE', '/admin/keys/%41bc')).status).toBe(404);
  });

  it('should refuse a budget that is not a finite amount up to $1,000,000, instead of storing no budget', async () => {
    const running = await serve();
    for (const usd of [1e308, 1_000_001, 0, -5, '5']) {
      const answer = await admin(running, 'POST', '/admin/keys', { name: 'big spender', budget: { usd, period: 'month' } });
      expect({ usd, status: answer.status, param: answer.body.error?.param }).toEqual({ usd, status: 400, param: 'budget.usd' });
      expect(answer.body.error?.message).toContain('1,000,000');
    }
    const largest = await admin(running, 'POST', '/admin/keys', { name: 'largest', budget: { usd: 1_000_000, period: 'month' } });
    expect(largest.status).toBe(201);
    expect(largest.body).toMatchObject({ budget: { nanoUsd: 1e15, period: 'month' } });
    expect((await admin(running, 'GET', '/admin/keys')).body.data).toHaveLength(1);
  });

  it('should refuse a key name over 200 characters', async () => {
    const running = await serve();
    const answer = await admin(running, 'POST', '/admin/keys', { name: 'n'.repeat(60_000) });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ param: 'name' });
    expect(answer.body.error?.message).toContain('at most 200 characters');
    expect((await admin(running, 'POST', '/admin/keys', { name: 'n'.repeat(200) })).status).toBe(201);
  });
});

describe('budgets and names set elsewhere', () => {
  it('should refuse a budget of 1e308 on the console’s key form, keeping the key’s budget as it was', async () => {
    const started = await startConsole('sqlite');
    scratch.later(() => started.close());
    const visitor = new ConsoleVisitor(started.origin);
    expect((await visitor.post('/register', { email: 'admin@example.com', password: 'a long enough password' })).status).toBe(303);
    const created = await visitor.post('/keys', { name: 'ci' }, '/keys');
    expect(created.status).toBe(201);
    const publicId = (/<output id="new-key"[^>]*>([^<]+)<\/output>/.exec(created.text)?.[1] ?? '').slice(6, 22);
    const changed = await visitor.post(`/keys/${publicId}`, { name: 'ci', budget_usd: '1e308', budget_period: 'month' });
    expect(changed.status).toBe(400);
    expect(changed.text).toContain('1,000,000');
    expect((await started.api.keys?.get(publicId))?.budget).toBeUndefined();
  });

  it('should refuse out-of-range budgets and long names in the config file and on the command line', () => {
    expect(configFileSchema.safeParse({ server: { console: { userKeys: { budget: { usd: 1e308, period: 'month' } } } } }).success).toBe(
      false,
    );
    expect(configFileSchema.safeParse({ server: { console: { userKeys: { budget: { usd: 20, period: 'month' } } } } }).success).toBe(true);
    expect(() => parseCliArgs(['keys', 'create', '--name', 'ci', '--budget', '9'.repeat(400)])).toThrow(/more than 0 to 1000000/);
    expect(() => parseCliArgs(['keys', 'create', '--name', 'n'.repeat(201)])).toThrow(/at most 200 characters/);
  });
});
