import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { StorageDb } from '../storage/schema.js';
import { newBalanceRowId } from './balance-ledger.js';

/** Letters and digits that cannot be mistaken for each other when typed from a screen or paper. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** 20 characters of 32: 100 bits, too many to guess. */
const CODE_LENGTH = 20;
export const MAX_CODES_PER_BATCH = 1_000;

/** Codes are compared as typed, without case, spaces or dashes. */
const normalCode = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');
const hashOf = (code: string) => createHash('sha256').update(normalCode(code)).digest('base64url');

function newCode(): string {
  const chars = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `SY-${chars.match(/.{5}/g)!.join('-')}`;
}

/** Makes `count` codes worth `nanoUsd` each until `expiresAt`; returns them (the only time they are seen) and the batch's id. */
export async function createCodes(
  db: StorageDb,
  init: { count: number; nanoUsd: number; expiresAt: number; createdBy: string },
  now = Date.now(),
): Promise<{ batchId: string; codes: string[] }> {
  const batchId = randomBytes(6).toString('base64url');
  const codes = Array.from({ length: init.count }, newCode);
  await db
    .insertInto('redemption_codes')
    .values(
      codes.map((code) => ({
        code_hash: hashOf(code),
        batch_id: batchId,
        value_nano_usd: init.nanoUsd,
        created_by: init.createdBy,
        created_at: now,
        expires_at: init.expiresAt,
        redeemed_by: null,
        redeemed_at: null,
      })),
    )
    .execute();
  return { batchId, codes };
}

export type Redemption = { ok: true; nanoUsd: number; batchId: string } | { ok: false; reason: 'unknown' | 'used' | 'expired' };

/**
 * Redeems a code for `accountId`: marks it used with a conditional update (still unused, not
 * expired) and credits its value in the same transaction, so of many redemptions at once exactly
 * one succeeds, and a code is never marked used without its credit.
 */
export async function redeemCode(db: StorageDb, code: string, accountId: string, now = Date.now()): Promise<Redemption> {
  const hash = hashOf(code);
  return db.transaction().execute(async (trx): Promise<Redemption> => {
    const marked = await trx
      .updateTable('redemption_codes')
      .set({ redeemed_by: accountId, redeemed_at: now })
      .where('code_hash', '=', hash)
      .where('redeemed_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    const row = await trx
      .selectFrom('redemption_codes')
      .select(['value_nano_usd', 'batch_id', 'redeemed_at', 'redeemed_by', 'expires_at'])
      .where('code_hash', '=', hash)
      .executeTakeFirst();
    if (row === undefined) return { ok: false, reason: 'unknown' };
    if (Number(marked.numUpdatedRows) !== 1) return { ok: false, reason: row.redeemed_at !== null ? 'used' : 'expired' };
    const nanoUsd = Number(row.value_nano_usd);
    await trx
      .insertInto('account_balance_ledger')
      .values({
        id: newBalanceRowId(),
        account_id: accountId,
        at: now,
        kind: 'redemption',
        amount_nano_usd: nanoUsd,
        actor_id: null,
        note: `code batch ${row.batch_id}`,
        request_id: null,
      })
      .execute();
    return { ok: true, nanoUsd, batchId: row.batch_id };
  });
}

export interface CodeBatch {
  batchId: string;
  nanoUsd: number;
  createdAt: number;
  expiresAt: number;
  count: number;
  redeemed: number;
}

/** Every batch, newest first: how many codes, how many redeemed. */
export async function listCodeBatches(db: StorageDb): Promise<CodeBatch[]> {
  const rows = await db
    .selectFrom('redemption_codes')
    .select((eb) => [
      'batch_id',
      eb.fn.max('value_nano_usd').as('value'),
      eb.fn.max('created_at').as('created_at'),
      eb.fn.max('expires_at').as('expires_at'),
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.count<number | string>('redeemed_at').as('redeemed'),
    ])
    .groupBy('batch_id')
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((row) => ({
    batchId: row.batch_id,
    nanoUsd: Number(row.value),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    count: Number(row.count),
    redeemed: Number(row.redeemed),
  }));
}
