import type { Redis } from 'ioredis';
import type { BudgetAccount, BudgetStore, Reservation } from './budget-store.js';

/**
 * Reserves atomically in Redis: a missing counter answers `-1` (the caller then seeds it from the
 * ledger); otherwise the reservation is added only if it fits.
 * KEYS[1] counter · ARGV[1] amount · ARGV[2] limit · ARGV[3] seed or '' · ARGV[4] expiry (epoch s) or ''
 */
const RESERVE = `
local current = redis.call('GET', KEYS[1])
if not current then
  if ARGV[3] == '' then return {-1, 0} end
  redis.call('SET', KEYS[1], ARGV[3], 'NX')
  if ARGV[4] ~= '' then redis.call('EXPIREAT', KEYS[1], tonumber(ARGV[4])) end
  current = redis.call('GET', KEYS[1])
end
current = tonumber(current)
local amount = tonumber(ARGV[1])
if current + amount > tonumber(ARGV[2]) then return {0, current} end
redis.call('INCRBY', KEYS[1], amount)
return {1, current + amount}
`;

/** An hour past the period's end, so a request that settles late still finds its counter. */
const EXPIRY_MARGIN_S = 3_600;

/** Budgets shared by every instance on one Redis: one round trip per reservation once a counter exists. */
export class RedisBudgetStore implements BudgetStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #onError: (error: unknown) => void;

  constructor(redis: Redis, prefix: string, onError: (error: unknown) => void) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#onError = onError;
  }

  #key(account: BudgetAccount): string {
    return `${this.#prefix}budget:${account.keyId}:${account.periodStart}`;
  }

  async #run(account: BudgetAccount, nanoUsd: number, seed: string): Promise<[number, number]> {
    const expiry = account.periodEnd === undefined ? '' : String(Math.ceil(account.periodEnd / 1000) + EXPIRY_MARGIN_S);
    const answer = (await this.#redis.eval(RESERVE, 1, this.#key(account), nanoUsd, account.limitNanoUsd, seed, expiry)) as [number, number];
    return answer;
  }

  async reserve(account: BudgetAccount, nanoUsd: number): Promise<Reservation> {
    let [verdict, spent] = await this.#run(account, nanoUsd, '');
    if (verdict === -1) [verdict, spent] = await this.#run(account, nanoUsd, String(await account.spentInLedger()));
    return verdict === 1 ? { ok: true } : { ok: false, spentNanoUsd: spent };
  }

  settle(account: BudgetAccount, reservedNanoUsd: number, actualNanoUsd: number): void {
    const change = actualNanoUsd - reservedNanoUsd;
    if (change !== 0) this.#redis.incrby(this.#key(account), change).catch(this.#onError);
  }
}
