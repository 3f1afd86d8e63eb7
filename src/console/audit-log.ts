import { appendAuditRow } from '../storage/admin-audit.js';
import type { StorageDb } from '../storage/schema.js';
import type { ConsoleUser } from './users.js';

/** One admin action as the console shows it. */
export interface AuditEntry {
  at: number;
  actorEmail: string;
  action: string;
  target: string | undefined;
  detail: string | undefined;
}

/** What an admin can do; each is a row of the audit log. */
export type AuditAction =
  | 'invite.created'
  | 'user.role'
  | 'user.disabled'
  | 'user.enabled'
  | 'user.deleted'
  | 'user.reset-link'
  | 'balance.top-up'
  | 'balance.adjustment'
  | 'balance.credit-limit'
  | 'codes.created';

/** Appends one admin action. The id orders rows made in the same millisecond only loosely; `at` is the order. */
export async function recordAdminAction(
  db: StorageDb,
  actor: Pick<ConsoleUser, 'id' | 'email'>,
  action: AuditAction,
  target?: string,
  detail?: string,
  now = Date.now(),
): Promise<void> {
  await appendAuditRow(db, { actorId: actor.id, actorEmail: actor.email, action, target, detail }, now);
}

/** The newest `limit` actions, newest first. */
export async function recentAdminActions(db: StorageDb, limit = 200): Promise<AuditEntry[]> {
  const rows = await db.selectFrom('console_audit_log').selectAll().orderBy('at', 'desc').orderBy('id').limit(limit).execute();
  return rows.map((row) => ({
    at: Number(row.at),
    actorEmail: row.actor_email,
    action: row.action,
    target: row.target ?? undefined,
    detail: row.detail ?? undefined,
  }));
}
