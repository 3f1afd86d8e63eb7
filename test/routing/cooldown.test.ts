import { describe, expect, it } from 'vitest';
import { DEFAULT_COOLDOWNS, MemoryCooldownStore, TRIAL_MS } from '../../src/routing/cooldown.js';

const options = { ...DEFAULT_COOLDOWNS, failures: 3, windowMs: 1_000, cooldownMs: 5_000, maxCooldownMs: 60_000 };

function storeAt(start = 1_000_000) {
  const clock = { now: start };
  return { clock, store: new MemoryCooldownStore(options, () => clock.now) };
}

describe('MemoryCooldownStore', () => {
  it('should answer standings at once, without a promise (no deadline to watch per request)', async () => {
    const { store } = storeAt();
    await store.failed('d', 5_000);
    const standings = store.standings(['d']);
    expect(standings).toBeInstanceOf(Map);
    expect(standings.get('d')).toEqual({ state: 'cooling', forMs: 5_000 });
  });

  it('should take a deployment out after the configured failures within the window', async () => {
    const { clock, store } = storeAt();
    expect(await store.failed('d')).toBe(0);
    expect(await store.failed('d')).toBe(0);
    expect(await store.standings(['d'])).toEqual(new Map());
    clock.now += 10;
    expect(await store.failed('d')).toBe(5_000);
    expect(await store.standings(['d', 'other'])).toEqual(new Map([['d', { state: 'cooling', forMs: 5_000 }]]));
  });

  it('should not count failures older than the window', async () => {
    const { clock, store } = storeAt();
    await store.failed('d');
    await store.failed('d');
    clock.now += 1_500;
    expect(await store.failed('d')).toBe(0);
  });

  it('should take a deployment out at once for a given time, capped', async () => {
    const { store } = storeAt();
    expect(await store.failed('d', 30_000)).toBe(30_000);
    expect(await store.failed('e', 3_600_000)).toBe(60_000);
  });

  it('should hand the trial to one caller once the cooldown is over, and bring the deployment back on success', async () => {
    const { clock, store } = storeAt();
    await store.failed('d', 2_000);
    clock.now += 2_000;
    expect(await store.standings(['d'])).toEqual(new Map([['d', { state: 'trial' }]]));
    // Everyone else still sees it out while the trial runs.
    expect((await store.standings(['d'])).get('d')).toEqual({ state: 'cooling', forMs: TRIAL_MS });
    await store.recovered('d');
    expect(await store.standings(['d'])).toEqual(new Map());
  });

  it('should cool a deployment down again when its trial fails', async () => {
    const { clock, store } = storeAt();
    await store.failed('d', 2_000);
    clock.now += 2_000;
    await store.standings(['d']);
    expect(await store.failed('d')).toBe(5_000);
    expect((await store.standings(['d'])).get('d')).toEqual({ state: 'cooling', forMs: 5_000 });
  });

  it('should offer the trial again when its holder never reported back', async () => {
    const { clock, store } = storeAt();
    await store.failed('d', 2_000);
    clock.now += 2_000;
    await store.standings(['d']);
    clock.now += TRIAL_MS;
    expect((await store.standings(['d'])).get('d')).toEqual({ state: 'trial' });
  });

  it('should never shorten a running cooldown', async () => {
    const { store } = storeAt();
    await store.failed('d', 50_000);
    await store.failed('d', 1_000);
    expect((await store.standings(['d'])).get('d')).toEqual({ state: 'cooling', forMs: 50_000 });
  });
});
