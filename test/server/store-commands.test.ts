import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/canonical/index.js';
import { parseCliArgs } from '../../src/server/parse-cli-args.js';
import type { StoreCommand } from '../../src/server/parse-store-flags.js';
import { runStoreCommand } from '../../src/server/store-commands.js';
import { hashPassword, verifyPassword } from '../../src/console/passwords.js';
import { sessionUserId, startSession } from '../../src/console/sessions.js';
import { createUser, findUserByEmail } from '../../src/console/users.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { createKey, findKeyById } from '../../src/access/stored-keys.js';
import { creditLimitOf } from '../../src/limits/credit-limits.js';
import { useScratch } from '../helpers/scratch.js';
import { cleanEnv, readBanner, spawnCli, type RunningProcess } from './spawn-cli.js';

const scratch = useScratch();
const databaseFile = () => scratch.file('store-cli');

/** Runs a store command as the CLI would parse it; returns what it printed. */
async function run(argv: string[], env: NodeJS.ProcessEnv = cleanEnv()): Promise<string> {
  let out = '';
  await runStoreCommand(parseCliArgs(argv) as StoreCommand, env, (text) => void (out += text));
  return out;
}

describe('switchyard keys, usage and migrate', () => {
  it('should create a key shown once, list it without its secret, and revoke it', async () => {
    const database = databaseFile();
    const created = await run(['keys', 'create', '--name', 'ci-bot', '--models', 'mock', '--expires', '30d', '--database', database]);
    const key = /\n {2}(sk-sy-\S+)\n/.exec(created)?.[1];
    expect(key).toBeDefined();
    expect(created).toContain('only time the key is shown');
    const publicId = /public id (\S+)\)/.exec(created)?.[1] ?? '';

    const listed = await run(['keys', 'list', '--database', database]);
    expect(listed).toMatch(/^PUBLIC ID\s+NAME\s+STATUS\s+CREATED\s+LAST USED\s+EXPIRES\s+MODELS\s+SPEND/);
    expect(listed).toContain(publicId);
    expect(listed).toContain('ci-bot');
    expect(listed).toMatch(/active/);
    expect(listed).not.toContain(key!.slice(22, -6));

    expect(await run(['keys', 'revoke', publicId, '--database', database])).toBe(`Revoked key ${publicId}.\n`);
    expect(await run(['keys', 'list', '--database', database])).toMatch(/revoked/);
    await expect(run(['keys', 'revoke', publicId, '--database', database])).rejects.toSatisfy(
      (error: unknown) => GatewayError.isInstance(error) && error.code === 'KEY_NOT_FOUND' && error.message.includes('already revoked'),
    );
  });

  it('should revoke a key whose public id starts with a dash, typed as is on the command line', async () => {
    // Keys made before ids were kept from starting with '-' (1 in 64): made here by renaming one.
    const database = databaseFile();
    const created = await run(['keys', 'create', '--name', 'dash', '--database', database]);
    const publicId = /public id (\S+)\)/.exec(created)?.[1] ?? '';
    const dashId = `-${publicId.slice(1)}`;
    const opened = await openDatabase({ url: database });
    await opened.db.updateTable('api_keys').set({ public_id: dashId }).where('public_id', '=', publicId).execute();
    await opened.close();

    expect(parseCliArgs(['usage', '--key', dashId])).toMatchObject({ command: 'usage', keyId: dashId });
    expect(parseCliArgs(['keys', 'revoke', '--', dashId])).toMatchObject({ command: 'keys-revoke', publicId: dashId });
    const cli = spawnCli(['keys', 'revoke', dashId, '--database', database]);
    const exit = await cli.exited;
    expect(cli.stderr()).toBe('');
    expect(exit.code).toBe(0);
    expect(cli.stdout()).toBe(`Revoked key ${dashId}.\n`);
    expect(await run(['keys', 'list', '--database', database])).toMatch(new RegExp(`${dashId}\\s+dash\\s+revoked`));
  });

  it('should give a console account a new password, printed once, and end its sessions', async () => {
    const database = databaseFile();
    const opened = await openDatabase({ url: database });
    const user = await createUser(opened.db, {
      email: 'ada@example.com',
      passwordHash: await hashPassword('the forgotten one'),
      isAdmin: true,
    });
    const session = await startSession(opened.db, user!.id, 60_000);
    await opened.close();

    const cli = spawnCli(['users', 'reset-password', 'Ada@Example.com', '--database', database]);
    const exit = await cli.exited;
    expect(cli.stderr()).toBe('');
    expect(exit.code).toBe(0);
    const password = /\n {2}(\S+)\n/.exec(cli.stdout())?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(cli.stdout()).toContain('New password for ada@example.com');

    const after = await openDatabase({ url: database });
    const stored = await findUserByEmail(after.db, 'ada@example.com');
    expect(await verifyPassword(stored?.passwordHash, password)).toBe(true);
    expect(await verifyPassword(stored?.passwordHash, 'the forgotten one')).toBe(false);
    expect(await sessionUserId(after.db, session)).toBeUndefined();
    await after.close();

    await expect(run(['users', 'reset-password', 'nobody@example.com', '--database', database])).rejects.toSatisfy(
      (error: unknown) => GatewayError.isInstance(error) && error.code === 'USER_NOT_FOUND',
    );
    expect(() => parseCliArgs(['users', 'reset-password'])).toThrow(/takes the account's e-mail address/);
  });

  it('should set an account’s credit limit and lift a key’s pause, each in the audit log', async () => {
    const database = databaseFile();
    const opened = await openDatabase({ url: database });
    const user = await createUser(opened.db, {
      email: 'ada@example.com',
      passwordHash: await hashPassword('whatever it is'),
      isAdmin: false,
    });
    const { stored } = await createKey(opened.db, { name: 'laptop' });
    await opened.db.updateTable('api_keys').set({ paused_at: 1, pause_reason: '$5.00 in the last hour' }).execute();
    await opened.close();

    expect(await run(['accounts', 'credit-limit', 'Ada@example.com', '--usd=25.5', '--database', database])).toBe(
      'The credit limit of ada@example.com is $25.50.\n',
    );
    expect(await run(['keys', 'unpause', stored.publicId, '--database', database])).toBe(`Lifted the pause of key ${stored.publicId}.\n`);
    expect(await run(['keys', 'unpause', stored.publicId, '--database', database])).toBe(`Key ${stored.publicId} is not paused.\n`);
    await expect(run(['accounts', 'credit-limit', 'ada@example.com', '--usd=-3', '--database', database])).rejects.toSatisfy(
      (error: unknown) => GatewayError.isInstance(error) && error.code === 'CONFIG_FLAG_INVALID',
    );
    await expect(run(['keys', 'unpause', 'nope', '--database', database])).rejects.toSatisfy(
      (error: unknown) => GatewayError.isInstance(error) && error.code === 'KEY_NOT_FOUND',
    );

    const after = await openDatabase({ url: database });
    expect(await creditLimitOf(after.db, user!.id)).toBe(25.5e9);
    expect((await findKeyById(after.db, stored.publicId)).ok).toBe(true);
    const audit = await after.db
      .selectFrom('console_audit_log')
      .select(['actor_email', 'action', 'target', 'detail'])
      .orderBy('at')
      .execute();
    expect(audit).toEqual([
      { actor_email: 'switchyard CLI', action: 'balance.credit-limit', target: 'ada@example.com', detail: '$25.50' },
      { actor_email: 'switchyard CLI', action: 'key.unpaused', target: stored.publicId, detail: '$5.00 in the last hour' },
    ]);
    await after.close();
  });

  it('should print keys as JSON for scripts, with the budget and expiry it was given', async () => {
    const database = databaseFile();
    const created = JSON.parse(
      await run([
        'keys',
        'create',
        '--name',
        'json',
        '--budget',
        '12.5',
        '--budget-period',
        'day',
        '--expires',
        '2099-01-01',
        '--rpm',
        '60',
        '--concurrency',
        '2',
        '--json',
        '--database',
        database,
      ]),
    ) as Record<string, unknown>;
    expect(created).toMatchObject({
      name: 'json',
      budget: { nanoUsd: 12_500_000_000, period: 'day' },
      expiresAt: Date.parse('2099-01-01T00:00:00Z'),
      limits: { requestsPerMinute: 60, concurrency: 2 },
    });
    expect(String(created.key)).toMatch(/^sk-sy-/);
    const listed = JSON.parse(await run(['keys', 'list', '--json', '--database', database])) as Array<Record<string, unknown>>;
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty('key');
  });

  it('should report usage per day, key and model from the ledger', async () => {
    const file = databaseFile();
    const opened = await openDatabase({ url: file });
    const base = {
      attempt: 1,
      user_agent: null,
      protocol: 'chat',
      provider: 'p',
      upstream_model: 'u',
      stream: 0,
      status: 200,
      error_code: null,
      cached_input_tokens: null,
      cache_write_tokens: null,
      reasoning_tokens: null,
      price_version: null,
      latency_ms: 5,
      first_token_ms: null,
      usage_source: 'reported',
    };
    await opened.db
      .insertInto('usage_ledger')
      .values([
        {
          ...base,
          request_id: 'a',
          at: Date.parse('2026-11-25T10:00:00Z'),
          key_public_id: 'k1',
          model: 'm1',
          input_tokens: 10,
          output_tokens: 2,
          cost_nano_usd: 1_500,
          billing: 'complete',
        },
        {
          ...base,
          request_id: 'b',
          at: Date.parse('2026-11-26T10:00:00Z'),
          key_public_id: 'k1',
          model: 'm2',
          input_tokens: 20,
          output_tokens: 4,
          cost_nano_usd: null,
          billing: 'complete',
        },
        {
          ...base,
          request_id: 'c',
          at: Date.parse('2026-11-26T11:00:00Z'),
          key_public_id: 'k2',
          model: 'm2',
          input_tokens: null,
          output_tokens: null,
          cost_nano_usd: null,
          billing: 'failed',
          status: 502,
        },
        // Answered at its second attempt: one request, two attempts, not a failed request.
        {
          ...base,
          request_id: 'd',
          at: Date.parse('2026-11-26T12:00:01Z'),
          key_public_id: 'k2',
          model: 'm2',
          input_tokens: null,
          output_tokens: null,
          cost_nano_usd: null,
          billing: 'failed',
          status: 503,
        },
        {
          ...base,
          request_id: 'd',
          attempt: 2,
          at: Date.parse('2026-11-26T12:00:00Z'),
          key_public_id: 'k2',
          model: 'm2',
          input_tokens: 5,
          output_tokens: 1,
          cost_nano_usd: 5_000,
          billing: 'complete',
        },
      ])
      .execute();
    await opened.close();

    const byDay = await run(['usage', '--database', file]);
    const lines = byDay.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^DAY \(UTC\)\s+REQUESTS\s+ATTEMPTS\s+FAILED\s+PARTIAL\s+INPUT\s+CACHED\s+OUTPUT\s+REASONING\s+COST$/);
    expect(lines[1]).toMatch(/^2026-11-26\s+3\s+4\s+1\s+0\s+25\s+0\s+5\s+0\s+\$0\.000005 \+ 1 unpriced$/);
    expect(lines[2]).toMatch(/^2026-11-25\s+1\s+1\s+0\s+0\s+10\s+0\s+2\s+0\s+\$0\.000002$/);

    const byKey = JSON.parse(await run(['usage', '--by', 'key', '--json', '--database', file])) as Array<{
      group: string;
      requests: number;
    }>;
    expect(byKey.map((row) => [row.group, row.requests])).toEqual([
      ['k1', 2],
      ['k2', 2],
    ]);
    const oneModel = JSON.parse(
      await run(['usage', '--by', 'model', '--model', 'm2', '--from', '2026-11-26', '--json', '--database', file]),
    ) as Array<{ group: string; inputTokens: number }>;
    expect(oneModel).toEqual([expect.objectContaining({ group: 'm2', inputTokens: 25 })]);
  });

  it('should bring a database up to date with migrate, and say so when it already is', async () => {
    const database = databaseFile();
    expect(await run(['migrate', '--database', database])).toBe(
      `${database}: ran 0001_keys_and_ledger, 0002_usage_source_and_tokens, 0003_key_limits, 0004_gateway_leases, 0005_console, 0006_ledger_deployment, 0007_ledger_read_indexes, 0008_ledger_cache_write_1h, 0009_console_user_management, 0010_account_balances, 0011_redemption_codes, 0012_account_credit_limits, 0013_key_pauses.\n`,
    );
    expect(await run(['migrate', '--database', database])).toBe(`${database} is up to date.\n`);
  });

  it('should refuse flags a command does not take, and a key without a name', () => {
    const codeOf = (argv: string[]) => {
      try {
        parseCliArgs(argv);
        return 'parsed';
      } catch (error) {
        return GatewayError.isInstance(error) ? error.code : 'other';
      }
    };
    expect(codeOf(['keys', 'create'])).toBe('CONFIG_FLAG_INVALID');
    expect(codeOf(['keys', 'list', '--port', '1'])).toBe('CONFIG_FLAG_INVALID');
    expect(codeOf(['keys', 'revoke'])).toBe('CONFIG_FLAG_INVALID');
    expect(codeOf(['keys', 'create', '--name', 'x', '--budget', '-3'])).toBe('CONFIG_FLAG_INVALID');
    expect(codeOf(['keys', 'create', '--name', 'x', '--rpm', '0'])).toBe('CONFIG_FLAG_INVALID');
    expect(codeOf(['keys', 'create', '--name', 'x', '--concurrency', '1.5'])).toBe('CONFIG_FLAG_INVALID');
    expect(codeOf(['keys', 'create', '--name', 'x', '--expires', '2001-01-01'])).toBe('CONFIG_FLAG_INVALID');
    expect(codeOf(['usage', '--by', 'week'])).toBe('CONFIG_FLAG_INVALID');
    expect(codeOf(['serve', '--name', 'x'])).toBe('CONFIG_FLAG_INVALID');
  });

  it('should serve a key made with the CLI, and say where the database is', async () => {
    const database = databaseFile();
    const env = cleanEnv({ SWITCHYARD_DATABASE: database, SWITCHYARD_API_KEY: 'sk-dev-cli' });
    const created = await run(['keys', 'create', '--name', 'served'], env);
    const key = /\n {2}(sk-sy-\S+)\n/.exec(created)?.[1] ?? '';
    const child: RunningProcess = spawnCli(['--port', '0'], env);
    scratch.later(() => child.stop());
    const banner = await readBanner(child);
    expect(child.stdout()).toContain(`Keys and usage:                         ${database}`);
    const openai = new OpenAI({ apiKey: key, baseURL: banner.openAIBaseURL, maxRetries: 0 });
    const answer = await openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] });
    expect(answer.object).toBe('chat.completion');
    await child.stop();
    // The request was recorded and flushed on shutdown.
    const usage = JSON.parse(await run(['usage', '--by', 'key', '--json'], env)) as Array<{ group: string; requests: number }>;
    expect(usage).toEqual([expect.objectContaining({ requests: 1 })]);
  });
});
