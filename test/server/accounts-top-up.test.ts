import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/canonical/index.js';
import { recentAdminActions } from '../../src/console/audit-log.js';
import { createUser } from '../../src/console/users.js';
import { balanceHistory, balanceOf } from '../../src/limits/balance-ledger.js';
import { parseCliArgs } from '../../src/server/parse-cli-args.js';
import type { StoreCommand } from '../../src/server/parse-store-flags.js';
import { runStoreCommand } from '../../src/server/store-commands.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { useScratch } from '../helpers/scratch.js';
import { cleanEnv } from './spawn-cli.js';

const scratch = useScratch();

async function run(argv: string[]): Promise<string> {
  let out = '';
  await runStoreCommand(parseCliArgs(argv) as StoreCommand, cleanEnv(), (text) => void (out += text));
  return out;
}

describe('switchyard accounts top-up', () => {
  it('should credit a console account, with a note, in its balance ledger and the audit log', async () => {
    const database = scratch.file('accounts-cli');
    const opened = await openDatabase({ url: database });
    const user = await createUser(opened.db, { email: 'ada@example.com', passwordHash: 'x', isAdmin: false });
    await opened.close();

    expect(await run(['accounts', 'top-up', 'Ada@Example.com', '--usd', '12.5', '--note', 'invoice 7', '--database', database])).toBe(
      'Credited $12.500000 to the balance of ada@example.com.\n',
    );
    expect(await run(['accounts', 'top-up', 'ada@example.com', '--usd=-2', '--kind', 'adjustment', '--database', database])).toBe(
      'Adjusted $-2.000000 on the balance of ada@example.com.\n',
    );
    const after = await openDatabase({ url: database });
    try {
      expect(await balanceOf(after.db, user!.id)).toBe(10.5e9);
      expect((await balanceHistory(after.db, user!.id)).map((row) => [row.kind, row.nanoUsd, row.actorId])).toEqual(
        expect.arrayContaining([
          ['top-up', 12.5e9, 'cli'],
          ['adjustment', -2e9, 'cli'],
        ]),
      );
      expect((await recentAdminActions(after.db)).map((entry) => entry.detail)).toContain('top-up $12.500000 — invoice 7');
    } finally {
      await after.close();
    }
    await expect(run(['accounts', 'top-up', 'ada@example.com', '--usd', '0', '--database', database])).rejects.toSatisfy(
      (error: unknown) => GatewayError.isInstance(error) && error.code === 'CONFIG_FLAG_INVALID',
    );
    await expect(run(['accounts', 'top-up', 'nobody@example.com', '--usd', '1', '--database', database])).rejects.toSatisfy(
      (error: unknown) => GatewayError.isInstance(error) && error.code === 'USER_NOT_FOUND',
    );
    expect(() => parseCliArgs(['accounts', 'top-up', 'ada@example.com'])).toThrow(/needs --usd/);
  });
});
