import { randomBytes } from 'node:crypto';
import type { StorageDb } from './schema.js';

/** One row of the console's audit log: who (id, and e-mail as it was), what, to whom, why. */
export interface AuditRow {
  actorId: string;
  actorEmail: string;
  action: string;
  target: string | undefined;
  detail: string | undefined;
}

/** Appends a row to the audit log (the console, the CLI and the admin API all write it). */
export async function appendAuditRow(db: StorageDb, row: AuditRow, now = Date.now()): Promise<void> {
  await db
    .insertInto('console_audit_log')
    .values({
      id: randomBytes(12).toString('base64url'),
      at: now,
      actor_id: row.actorId,
      actor_email: row.actorEmail,
      action: row.action,
      target: row.target ?? null,
      detail: row.detail ?? null,
    })
    .execute();
}
