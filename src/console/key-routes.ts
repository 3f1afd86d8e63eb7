import { KEY_NAME_MAX } from '../access/key-bounds.js';
import type { StoredKey } from '../access/stored-keys.js';
import { redirect, sendHtml } from './console-http.js';
import type { ResolvedConsoleOptions } from './console-options.js';
import { keyOwners, ownerOf, setKeyOwner } from './key-owners.js';
import { narrowingError, parseKeySettings, settingsOf, type KeySettings } from './key-settings.js';
import { keySettingsPage, keysPage, type KeysPageState } from './keys-pages.js';
import { spendByKey } from './usage-report.js';
import { findAbnormalSpend, recentRequestsOf } from '../usage/abnormal-spend.js';
import type { KeyActivity } from './keys-pages.js';
import { listUsers, type ConsoleUser } from './users.js';
import { modelIds, notFound, type Visit } from './visitor-session.js';

/** The keys a user sees: all of them for an admin, else their own. */
export async function visibleKeys(visit: Visit, options: ResolvedConsoleOptions): Promise<StoredKey[]> {
  const all = await options.keys.list();
  if (visit.user?.isAdmin) return all;
  const owners = await keyOwners(visit.db);
  return all.filter((key) => owners.get(key.publicId) === visit.user?.id);
}

/** A key this user may manage (an admin: any); undefined otherwise, or when revoked. */
export async function ownKey(visit: Visit, options: ResolvedConsoleOptions, publicId: string): Promise<StoredKey | undefined> {
  const key = await options.keys.get(publicId);
  if (key === undefined || key.revokedAt !== undefined) return undefined;
  if (visit.user?.isAdmin) return key;
  return (await ownerOf(visit.db, publicId)) === visit.user?.id ? key : undefined;
}

export async function keysState(visit: Visit, options: ResolvedConsoleOptions, extra: Partial<KeysPageState>): Promise<KeysPageState> {
  const keys = await visibleKeys(visit, options);
  const spent = await spendByKey(visit.db);
  const unusual = new Map(
    (
      await findAbnormalSpend(visit.db, Date.now(), undefined, visit.user?.isAdmin === true ? undefined : keys.map((key) => key.publicId))
    ).map((spend) => [spend.keyId, spend]),
  );
  const owners = visit.user?.isAdmin ? await keyOwners(visit.db) : new Map<string, string>();
  const emails = visit.user?.isAdmin
    ? new Map((await listUsers(visit.db)).map((user) => [user.id, user.email]))
    : new Map<string, string>();
  const rows = keys
    .map((key) => {
      const owner = owners.get(key.publicId);
      const flagged = unusual.get(key.publicId);
      return {
        key,
        ownerEmail: owner === undefined ? undefined : emails.get(owner),
        spent: spent.get(key.publicId) ?? { nanoUsd: 0, unpriced: 0 },
        ...(flagged === undefined ? {} : { unusual: flagged }),
      };
    })
    // Live keys first, newest first.
    .sort((a, b) => Number(a.key.revokedAt !== undefined) - Number(b.key.revokedAt !== undefined) || b.key.createdAt - a.key.createdAt);
  return { rows, models: modelIds(options), now: Date.now(), ...extra };
}

/** What a user (not an admin) starts from: the `userKeys` ceiling, or nothing set. */
function userCeiling(options: ResolvedConsoleOptions): KeySettings {
  const ceiling = options.userKeys;
  return {
    models: ceiling?.models ?? null,
    expiresAt: null,
    budget: ceiling?.budget === undefined ? null : { nanoUsd: Math.round(ceiling.budget.usd * 1e9), period: ceiling.budget.period },
    limits: ceiling?.limits === undefined || Object.keys(ceiling.limits).length === 0 ? null : ceiling.limits,
  };
}

/** A user's empty fields take the ceiling's values, so leaving a field empty never widens. */
function withCeiling(wanted: KeySettings, ceiling: KeySettings): KeySettings {
  return {
    models: wanted.models ?? ceiling.models,
    expiresAt: wanted.expiresAt ?? ceiling.expiresAt,
    budget: wanted.budget ?? ceiling.budget,
    limits: ceiling.limits === null && wanted.limits === null ? null : { ...ceiling.limits, ...wanted.limits },
  };
}

export async function createKey(visit: Visit, form: URLSearchParams, options: ResolvedConsoleOptions, user: ConsoleUser): Promise<void> {
  const name = (form.get('name') ?? '').trim();
  const parsed = parseKeySettings(form, modelIds(options));
  const refuse = async (error: string) =>
    sendHtml(visit.res, 400, keysPage(visit.ctx, await keysState(visit, options, { error })), visit.cookies);
  if (name === '' || name.length > KEY_NAME_MAX)
    return refuse(`Give the key a name (up to ${KEY_NAME_MAX} characters), e.g. what will use it.`);
  if (typeof parsed === 'string') return refuse(parsed);
  let settings = parsed;
  if (!user.isAdmin) {
    const ceiling = userCeiling(options);
    settings = withCeiling(parsed, ceiling);
    const error = narrowingError(ceiling, settings);
    if (error !== undefined) return refuse(error);
  }
  const created = await options.keys.create({
    name,
    ...(settings.models === null ? {} : { models: settings.models }),
    ...(settings.expiresAt === null ? {} : { expiresAt: settings.expiresAt }),
    ...(settings.budget === null ? {} : { budget: settings.budget }),
    ...(settings.limits === null ? {} : { limits: settings.limits }),
  });
  await setKeyOwner(visit.db, created.stored.publicId, user.id);
  // The page with the key is the answer to the POST itself: the key never sits in a URL or a cache.
  return sendHtml(
    visit.res,
    201,
    keysPage(visit.ctx, await keysState(visit, options, { created: { key: created.key, publicId: created.stored.publicId } })),
    visit.cookies,
  );
}

export async function changeKey(visit: Visit, form: URLSearchParams, options: ResolvedConsoleOptions, publicId: string): Promise<void> {
  const key = await ownKey(visit, options, publicId);
  if (key === undefined) return notFound(visit);
  const name = (form.get('name') ?? '').trim();
  const parsed = parseKeySettings(form, modelIds(options));
  const current = settingsOf(key);
  const refuse = (error: string) =>
    sendHtml(
      visit.res,
      400,
      keySettingsPage(visit.ctx, key, modelIds(options), typeof parsed === 'string' ? current : parsed, error),
      visit.cookies,
    );
  if (name === '' || name.length > KEY_NAME_MAX) return refuse(`Give the key a name (up to ${KEY_NAME_MAX} characters).`);
  if (typeof parsed === 'string') return refuse(parsed);
  if (visit.user?.isAdmin !== true) {
    const error = narrowingError(current, parsed);
    if (error !== undefined) return refuse(error);
  }
  await options.keys.update(publicId, { name, ...parsed });
  return redirect(visit.res, `${visit.ctx.base}/keys`, visit.cookies);
}

/** A key's page's activity: whether its spend jumped in the last hour, and its last requests. */
export async function keyActivity(visit: Visit, publicId: string): Promise<KeyActivity> {
  const [unusual] = await findAbnormalSpend(visit.db, Date.now(), undefined, [publicId]);
  return { unusual, recent: await recentRequestsOf(visit.db, publicId) };
}

/** An admin lifts the pause of a key paused for unusual spend: it works again on every instance at once; recorded in the audit log. */
export async function liftKeyPause(visit: Visit, options: ResolvedConsoleOptions, admin: ConsoleUser, publicId: string): Promise<void> {
  const key = await ownKey(visit, options, publicId);
  if (key === undefined) return notFound(visit);
  if (await options.keys.liftPause(publicId, admin)) options.logger.info({ keyId: publicId, by: admin.id }, 'switchyard: key pause lifted');
  return redirect(visit.res, `${visit.ctx.base}/keys/${publicId}`, visit.cookies);
}
