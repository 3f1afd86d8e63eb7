import { describe, expect, it } from 'vitest';
import { html } from '../../src/console/html.js';
import { narrowingError, parseKeySettings, type KeySettings } from '../../src/console/key-settings.js';
import { keysPage } from '../../src/console/keys-pages.js';
import { usageCsv, usagePage } from '../../src/console/usage-page.js';

const none: KeySettings = { models: null, expiresAt: null, budget: null, limits: null };
const NOW = Date.parse('2026-11-27T12:00:00Z');

describe('console pieces', () => {
  it('should escape every interpolated value, but not nested html', () => {
    const name = `<script>alert("x")</script>' &`;
    expect(html`<td>${name}</td>${html`<b>${'<i>'}</b>`}`.text).toBe(
      '<td>&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#39; &#38;</td><b>&#60;i&#62;</b>',
    );
  });

  it('should read a key form into settings, and say what is wrong with a bad one', () => {
    const form = new URLSearchParams('models=a&models=b&expires=2026-12-31&budget_usd=2.5&budget_period=day&rpm=60&tpm=&concurrency=2');
    expect(parseKeySettings(form, ['a', 'b'], NOW)).toEqual({
      models: ['a', 'b'],
      expiresAt: Date.parse('2027-01-01T00:00:00Z'),
      budget: { nanoUsd: 2_500_000_000, period: 'day' },
      limits: { requestsPerMinute: 60, concurrency: 2 },
    });
    expect(parseKeySettings(new URLSearchParams(''), ['a'], NOW)).toEqual(none);
    expect(parseKeySettings(new URLSearchParams('models=z'), ['a'], NOW)).toBe("There is no model 'z'.");
    expect(parseKeySettings(new URLSearchParams('expires=2020-01-01'), ['a'], NOW)).toBe('The expiry date is in the past.');
    expect(parseKeySettings(new URLSearchParams('rpm=1.5'), ['a'], NOW)).toBe('Requests per minute must be a whole number, 1 or more.');
    expect(parseKeySettings(new URLSearchParams('budget_usd=-1'), ['a'], NOW)).toBe(
      'The budget must be an amount of US dollars, 0 to 1,000,000.',
    );
  });

  it('should let users narrow a key and nothing else', () => {
    const set: KeySettings = {
      models: ['a', 'b'],
      expiresAt: NOW + 1000,
      budget: { nanoUsd: 100, period: 'month' },
      limits: { requestsPerMinute: 10 },
    };
    expect(narrowingError(none, set)).toBeUndefined();
    expect(
      narrowingError(set, {
        ...set,
        models: ['a'],
        expiresAt: NOW,
        budget: { nanoUsd: 50, period: 'month' },
        limits: { requestsPerMinute: 5, concurrency: 1 },
      }),
    ).toBeUndefined();
    expect(narrowingError(set, { ...set, models: null })).toMatch(/more models/);
    expect(narrowingError(set, { ...set, models: ['a', 'c'] })).toMatch(/more models/);
    expect(narrowingError(set, { ...set, expiresAt: null })).toMatch(/expiry/);
    expect(narrowingError(set, { ...set, budget: { nanoUsd: 100, period: 'never' } })).toMatch(/budget/);
    expect(narrowingError(set, { ...set, budget: { nanoUsd: 101, period: 'month' } })).toMatch(/budget/);
    expect(narrowingError(set, { ...set, limits: null })).toMatch(/requests per minute/);
  });

  it('should count unpriced requests on the usage page, never showing their cost as $0', () => {
    const row = {
      day: '2026-11-27',
      keyId: 'abc',
      model: 'm',
      requests: 2,
      attempts: 2,
      inputTokens: 2,
      cachedInputTokens: 0,
      outputTokens: 3,
      costNanoUsd: 0,
      unpriced: 2,
      errors: 0,
      rateLimited: 0,
    };
    const ctx = { base: '', csrf: 'x', user: { id: 'u', email: 'a@example.com', isAdmin: true, createdAt: NOW } };
    const state = {
      days: ['2026-11-27'],
      from: '2026-11-27',
      to: '2026-11-27',
      metric: 'requests' as const,
      keyNames: new Map([['abc', 'k']]),
    };
    const unpriced = usagePage(ctx, { ...state, rows: [row] }).text;
    expect(unpriced).not.toContain('$0.000000');
    expect(unpriced).toContain('<td class="num">2 unpriced</td>');
    expect(unpriced).toContain('5 tokens, 2 unpriced.');
    const mixed = usagePage(ctx, { ...state, rows: [row, { ...row, model: 'p', costNanoUsd: 1500, unpriced: 0 }] }).text;
    expect(mixed).toContain('$0.000002 + 2 unpriced.');
  });

  it("should show a key's unpriced requests as a count in Spent, never as $0", () => {
    const key = {
      publicId: 'AbCdEfGhIjKlMnOp',
      name: 'k',
      createdAt: NOW,
      lastUsedAt: NOW,
      expiresAt: undefined,
      revokedAt: undefined,
      models: undefined,
      budget: undefined,
      limits: undefined,
    };
    const ctx = { base: '', csrf: 'x', user: { id: 'u', email: 'a@example.com', isAdmin: false, createdAt: NOW } };
    const page = (spent: { nanoUsd: number; unpriced: number }) =>
      keysPage(ctx, { rows: [{ key, ownerEmail: undefined, spent }], models: ['m'], now: NOW }).text;
    expect(page({ nanoUsd: 0, unpriced: 3 })).toContain('<td class="num">3 unpriced</td>');
    expect(page({ nanoUsd: 0, unpriced: 3 })).not.toContain('$0.000000');
    expect(page({ nanoUsd: 2_000, unpriced: 1 })).toContain('<td class="num">$0.000002 + 1 unpriced</td>');
    expect(page({ nanoUsd: 0, unpriced: 0 })).toContain('<td class="num">$0.000000</td>');
  });

  it('should write CSV a spreadsheet reads safely: quoted fields, formulas defused, unknown key as empty', () => {
    const row = {
      day: '2026-11-27',
      model: 'm',
      requests: 1,
      attempts: 1,
      inputTokens: 2,
      cachedInputTokens: 0,
      outputTokens: 3,
      costNanoUsd: 1500,
      unpriced: 0,
      errors: 0,
      rateLimited: 1,
    };
    const csv = usageCsv(
      [
        { ...row, keyId: 'abc' },
        { ...row, keyId: null },
        { ...row, keyId: '-Ntc8GB7z09aRDRG' },
      ],
      new Map([['abc', '=HYPERLINK("x", "y")']]),
    );
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[1]).toBe(`2026-11-27,abc,"'=HYPERLINK(""x"", ""y"")",m,1,1,2,0,3,0.000001500,0,0,1`);
    expect(lines[2]).toBe('2026-11-27,,,m,1,1,2,0,3,0.000001500,0,0,1');
    // A public id may start with '-' (base64url): ids are written as they are.
    expect(lines[3]).toBe('2026-11-27,-Ntc8GB7z09aRDRG,,m,1,1,2,0,3,0.000001500,0,0,1');
  });
});
