import type { BalanceRow } from '../limits/balance-ledger.js';
import type { AccountKeySpend } from './account-key-spend.js';
import { formatTime, formatUsd } from './format.js';
import { html, type Html } from './html.js';
import { csrfField, layout, notice, type PageContext } from './layout.js';
import { csvField, typedText } from './usage-page.js';

/** Below this a balance is shown with a warning: about what a few long requests to a large model cost. */
export const LOW_BALANCE_NANO_USD = 1e9;

export interface BalanceState {
  /** Whose balance (an admin may look at another account's). */
  email: string;
  accountId: string;
  /** Whether this account is charged at all (an admin's is not, unless configured). */
  charged: boolean;
  balance: number;
  /** How far below zero the balance may go (an admin's credit limit), nano-USD; 0: not at all. */
  creditLimit: number;
  /** What each of the account's keys spent, this month and in all. */
  keys: readonly AccountKeySpend[];
  history: readonly BalanceRow[];
  info?: string;
  error?: string;
}

const KIND_LABELS: Record<BalanceRow['kind'], string> = {
  'top-up': 'Top-up',
  refund: 'Refund',
  adjustment: 'Adjustment',
  redemption: 'Code redeemed',
  usage: 'Usage',
};

/** A signed amount: `−$1.000000` below zero. */
const signedUsd = (nanoUsd: number) => (nanoUsd < 0 ? `−${formatUsd(-nanoUsd)}` : formatUsd(nanoUsd));

function creditLimitSection(ctx: PageContext, state: BalanceState): Html {
  const admin = ctx.user?.isAdmin === true;
  const text =
    state.creditLimit === 0
      ? html`No credit limit: requests stop at zero.`
      : html`Credit limit <strong id="credit-limit">${formatUsd(state.creditLimit)}</strong>: the balance may go down to −${formatUsd(state.creditLimit)}; <span id="available">${signedUsd(state.balance + state.creditLimit)}</span> can still be spent.`;
  return html`<p>${text}</p>${
    admin
      ? html`<form method="post" action="${ctx.base}/balance/credit-limit" class="inline">${csrfField(ctx)}
  <input type="hidden" name="account" value="${state.accountId}">
  <label for="credit-limit-usd">Credit limit (USD, 0 for none)</label>
  <input id="credit-limit-usd" name="usd" type="number" min="0" step="0.01" required value="${String(state.creditLimit / 1e9)}" size="8">
  <button type="submit">Set credit limit</button></form>`
      : ''
  }`;
}

function keySpendSection(keys: readonly AccountKeySpend[]): Html {
  if (keys.length === 0) return html`<p>No keys yet.</p>`;
  return html`<div class="table-scroll"><table id="key-spend">
  <caption class="visually-hidden">What each key spent</caption>
  <thead><tr><th scope="col">Key</th><th scope="col">Public id</th><th scope="col" class="num">This month (UTC)</th><th scope="col" class="num">In all</th></tr></thead>
  <tbody>${keys.map(
    (key) =>
      html`<tr><td>${key.name}${key.revoked ? ' (revoked)' : ''}</td><td><code>${key.publicId}</code></td><td class="num">${formatUsd(key.monthNanoUsd)}</td><td class="num">${formatUsd(key.allTimeNanoUsd)}</td></tr>`,
  )}</tbody>
</table></div>`;
}

export function balancePage(ctx: PageContext, state: BalanceState): Html {
  const own = ctx.user?.id === state.accountId;
  const low = state.charged && state.balance + state.creditLimit < LOW_BALANCE_NANO_USD;
  return layout(
    ctx,
    own ? 'Balance' : `Balance of ${state.email}`,
    'balance',
    html`${notice(state.error, 'error')}${notice(state.info)}
<p class="balance">Balance: <strong id="balance">${signedUsd(state.balance)}</strong></p>
${creditLimitSection(ctx, state)}
${state.charged ? '' : html`<p class="hint">Requests with this account’s keys are not charged to it (admins’ keys, unless the gateway says otherwise).</p>`}
${low ? html`<div class="notice error" role="alert" id="low-balance">The balance is low: requests that could cost more than what is left are refused (code <code>BALANCE_EXHAUSTED</code>). Redeem a code or ask an admin to top it up.</div>` : ''}
${
  own
    ? html`<form method="post" action="${ctx.base}/balance/redeem">${csrfField(ctx)}
  <label for="code">Redemption code</label>
  <input id="code" name="code" autocomplete="off" required placeholder="SY-XXXXX-XXXXX-XXXXX-XXXXX">
  <p><button type="submit">Redeem</button></p>
</form>`
    : ''
}
<h2>Spend per key</h2>
<p class="hint">What each of the account’s keys took from the balance; each request is on Usage.</p>
${keySpendSection(state.keys)}
<h2>History</h2>
<p><a href="${ctx.base}/balance.csv${own ? '' : `?account=${state.accountId}`}">Download as CSV</a> (the newest 500 changes; usage is one row per second of requests, each request is on Usage).</p>
<div class="table-scroll"><table id="balance-history">
  <caption class="visually-hidden">Balance changes, newest first</caption>
  <thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col" class="num">Amount</th><th scope="col">Note</th></tr></thead>
  <tbody>${state.history.map(
    (row) =>
      html`<tr><td class="when">${formatTime(row.at)}</td><td>${KIND_LABELS[row.kind] ?? row.kind}</td><td class="num">${row.nanoUsd < 0 ? `−${formatUsd(-row.nanoUsd)}` : `+${formatUsd(row.nanoUsd)}`}</td><td>${row.note ?? ''}</td></tr>`,
  )}</tbody>
</table></div>`,
  );
}

export function balanceCsv(history: readonly BalanceRow[]): string {
  const header = ['at', 'kind', 'amount_usd', 'note', 'request_id', 'by'];
  const lines = history.map((row) =>
    [
      new Date(row.at).toISOString(),
      row.kind,
      (row.nanoUsd / 1e9).toFixed(9),
      typedText(row.note ?? null),
      row.requestId ?? null,
      row.actorId ?? null,
    ]
      .map(csvField)
      .join(','),
  );
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
}
