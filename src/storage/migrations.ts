import { Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';

/**
 * The schema's history, oldest first. A migration is never edited once released: a change is a
 * new entry. Both engines run the
 * same builder calls.
 */
export function migrations(): Record<string, Migration> {
  return {
    '0001_keys_and_ledger': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('api_keys')
          .addColumn('public_id', 'text', (column) => column.primaryKey())
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('secret_hash', 'text', (column) => column.notNull().unique())
          .addColumn('created_at', 'bigint', (column) => column.notNull())
          .addColumn('last_used_at', 'bigint')
          .addColumn('expires_at', 'bigint')
          .addColumn('revoked_at', 'bigint')
          .addColumn('models', 'text')
          .addColumn('budget_nano_usd', 'bigint')
          .addColumn('budget_period', 'text')
          .execute();
        await db.schema
          .createTable('usage_ledger')
          .addColumn('request_id', 'text', (column) => column.notNull())
          .addColumn('attempt', 'integer', (column) => column.notNull())
          .addColumn('at', 'bigint', (column) => column.notNull())
          .addColumn('key_public_id', 'text')
          .addColumn('user_agent', 'text')
          .addColumn('protocol', 'text', (column) => column.notNull())
          .addColumn('model', 'text')
          .addColumn('provider', 'text')
          .addColumn('upstream_model', 'text')
          .addColumn('stream', 'integer', (column) => column.notNull())
          .addColumn('status', 'integer', (column) => column.notNull())
          .addColumn('error_code', 'text')
          .addColumn('input_tokens', 'integer')
          .addColumn('cached_input_tokens', 'integer')
          .addColumn('cache_write_tokens', 'integer')
          .addColumn('output_tokens', 'integer')
          .addColumn('reasoning_tokens', 'integer')
          .addColumn('cost_nano_usd', 'bigint')
          .addColumn('price_version', 'text')
          .addColumn('latency_ms', 'integer')
          .addColumn('first_token_ms', 'integer')
          .addColumn('billing', 'text', (column) => column.notNull())
          .addPrimaryKeyConstraint('usage_ledger_pk', ['request_id', 'attempt'])
          .execute();
        await db.schema.createIndex('usage_ledger_key_at').on('usage_ledger').columns(['key_public_id', 'at']).execute();
        await db.schema.createIndex('usage_ledger_model_at').on('usage_ledger').columns(['model', 'at']).execute();
      },
    },
    '0002_usage_source_and_tokens': {
      async up(db: Kysely<unknown>) {
        // Whether a row's counts were reported by the provider or estimated (a stream cut short).
        await db.schema.alterTable('usage_ledger').addColumn('usage_source', 'text').execute();
        // The browser token a request came with, for the token's own spend cap.
        await db.schema.alterTable('usage_ledger').addColumn('token_id', 'text').execute();
        // Secrets every instance must share (the key that signs browser tokens).
        await db.schema
          .createTable('gateway_secrets')
          .addColumn('name', 'text', (column) => column.primaryKey())
          .addColumn('value', 'text', (column) => column.notNull())
          .addColumn('created_at', 'bigint', (column) => column.notNull())
          .execute();
      },
    },
    '0003_key_limits': {
      async up(db: Kysely<unknown>) {
        // A key's own rate and concurrency limits, as JSON ({ requestsPerMinute, tokensPerMinute, concurrency }).
        await db.schema.alterTable('api_keys').addColumn('limits', 'text').execute();
      },
    },
    '0004_gateway_leases': {
      async up(db: Kysely<unknown>) {
        // Jobs one instance runs at a time when there is no Redis (the status page's probe).
        await db.schema
          .createTable('gateway_leases')
          .addColumn('name', 'text', (column) => column.primaryKey())
          .addColumn('holder', 'text', (column) => column.notNull())
          .addColumn('expires_at', 'bigint', (column) => column.notNull())
          .execute();
      },
    },
    '0005_console': {
      async up(db: Kysely<unknown>) {
        // The console's users, their sessions, failed sign-ins, invitations and which user owns which key.
        await db.schema
          .createTable('console_users')
          .addColumn('id', 'text', (column) => column.primaryKey())
          .addColumn('email', 'text', (column) => column.notNull().unique())
          .addColumn('password_hash', 'text', (column) => column.notNull())
          .addColumn('is_admin', 'integer', (column) => column.notNull())
          .addColumn('created_at', 'bigint', (column) => column.notNull())
          .execute();
        await db.schema
          .createTable('console_sessions')
          .addColumn('id_hash', 'text', (column) => column.primaryKey())
          .addColumn('user_id', 'text', (column) => column.notNull())
          .addColumn('created_at', 'bigint', (column) => column.notNull())
          .addColumn('expires_at', 'bigint', (column) => column.notNull())
          .execute();
        await db.schema.createIndex('console_sessions_user').on('console_sessions').column('user_id').execute();
        await db.schema
          .createTable('console_login_attempts')
          .addColumn('scope', 'text', (column) => column.primaryKey())
          .addColumn('failures', 'integer', (column) => column.notNull())
          .addColumn('window_start', 'bigint', (column) => column.notNull())
          .execute();
        await db.schema
          .createTable('console_key_owners')
          .addColumn('key_public_id', 'text', (column) => column.primaryKey())
          .addColumn('user_id', 'text', (column) => column.notNull())
          .execute();
        await db.schema.createIndex('console_key_owners_user').on('console_key_owners').column('user_id').execute();
        await db.schema
          .createTable('console_invites')
          .addColumn('token_hash', 'text', (column) => column.primaryKey())
          .addColumn('created_by', 'text', (column) => column.notNull())
          .addColumn('created_at', 'bigint', (column) => column.notNull())
          .addColumn('expires_at', 'bigint', (column) => column.notNull())
          .addColumn('used_at', 'bigint')
          .execute();
      },
    },
    '0006_ledger_deployment': {
      async up(db: Kysely<unknown>) {
        // Each attempt's row names the deployment it went to (a model may have several).
        await db.schema.alterTable('usage_ledger').addColumn('deployment', 'text').execute();
      },
    },
    '0007_ledger_read_indexes': {
      async up(db: Kysely<unknown>) {
        // The status page's figures are read from the index alone (same (model, at) prefix as the index it replaces).
        await db.schema
          .createIndex('usage_ledger_model_health')
          .on('usage_ledger')
          .columns(['model', 'at', 'status', 'billing', 'error_code', 'key_public_id', 'output_tokens', 'latency_ms', 'first_token_ms'])
          .execute();
        await db.schema.dropIndex('usage_ledger_model_at').execute();
        // What a key spent (its budget, the keys page) is read from the index alone, without a visit to each row.
        await db.schema
          .createIndex('usage_ledger_key_at_cost')
          .on('usage_ledger')
          .columns(['key_public_id', 'at', 'cost_nano_usd'])
          .execute();
        await db.schema.dropIndex('usage_ledger_key_at').execute();
        // A browser token's spend cap: only the rows of tokens are indexed.
        await db.schema
          .createIndex('usage_ledger_token_cost')
          .on('usage_ledger')
          .columns(['token_id', 'cost_nano_usd'])
          .where(sql.ref('token_id'), 'is not', null)
          .execute();
      },
    },
    '0008_ledger_cache_write_1h': {
      async up(db: Kysely<unknown>) {
        // The part of the cache writes made to Anthropic's 1-hour cache (priced apart), so a row can be re-priced from its columns.
        await db.schema.alterTable('usage_ledger').addColumn('cache_write_1h_tokens', 'integer').execute();
      },
    },
    '0009_console_user_management': {
      async up(db: Kysely<unknown>) {
        // A disabled user cannot sign in and their keys are refused; NULL: enabled.
        await db.schema.alterTable('console_users').addColumn('disabled_at', 'bigint').execute();
        // One-time password-reset links an admin made: a hash of the token, never the token.
        await db.schema
          .createTable('console_password_resets')
          .addColumn('token_hash', 'text', (column) => column.primaryKey())
          .addColumn('user_id', 'text', (column) => column.notNull())
          .addColumn('created_by', 'text', (column) => column.notNull())
          .addColumn('created_at', 'bigint', (column) => column.notNull())
          .addColumn('expires_at', 'bigint', (column) => column.notNull())
          .addColumn('used_at', 'bigint')
          .execute();
        // Every admin action: who (id and e-mail as they were), what, on whom, when. Append-only.
        await db.schema
          .createTable('console_audit_log')
          .addColumn('id', 'text', (column) => column.primaryKey())
          .addColumn('at', 'bigint', (column) => column.notNull())
          .addColumn('actor_id', 'text', (column) => column.notNull())
          .addColumn('actor_email', 'text', (column) => column.notNull())
          .addColumn('action', 'text', (column) => column.notNull())
          .addColumn('target', 'text')
          .addColumn('detail', 'text')
          .execute();
        await db.schema.createIndex('console_audit_log_at').on('console_audit_log').column('at').execute();
      },
    },
    '0010_account_balances': {
      async up(db: Kysely<unknown>) {
        // Every change to an account's balance (top-up, refund, adjustment, redemption, usage), signed
        // nano-USD, append-only: the balance is the sum of an account's rows.
        await db.schema
          .createTable('account_balance_ledger')
          .addColumn('id', 'text', (column) => column.primaryKey())
          .addColumn('account_id', 'text', (column) => column.notNull())
          .addColumn('at', 'bigint', (column) => column.notNull())
          .addColumn('kind', 'text', (column) => column.notNull())
          .addColumn('amount_nano_usd', 'bigint', (column) => column.notNull())
          .addColumn('actor_id', 'text')
          .addColumn('note', 'text')
          .addColumn('request_id', 'text')
          .execute();
        await db.schema
          .createIndex('account_balance_ledger_account')
          .on('account_balance_ledger')
          .columns(['account_id', 'kind', 'amount_nano_usd'])
          .execute();
        await db.schema
          .createIndex('account_balance_ledger_account_at')
          .on('account_balance_ledger')
          .columns(['account_id', 'at'])
          .execute();
      },
    },
    '0011_redemption_codes': {
      async up(db: Kysely<unknown>) {
        // Codes an admin made in batches, each worth a value, redeemable once before it expires: a hash of the code, never the code.
        await db.schema
          .createTable('redemption_codes')
          .addColumn('code_hash', 'text', (column) => column.primaryKey())
          .addColumn('batch_id', 'text', (column) => column.notNull())
          .addColumn('value_nano_usd', 'bigint', (column) => column.notNull())
          .addColumn('created_by', 'text', (column) => column.notNull())
          .addColumn('created_at', 'bigint', (column) => column.notNull())
          .addColumn('expires_at', 'bigint', (column) => column.notNull())
          .addColumn('redeemed_by', 'text')
          .addColumn('redeemed_at', 'bigint')
          .execute();
        await db.schema.createIndex('redemption_codes_batch').on('redemption_codes').column('batch_id').execute();
      },
    },
    '0012_account_credit_limits': {
      async up(db: Kysely<unknown>) {
        // How far below zero an admin lets an account's balance go (nano-USD); NULL: not at all.
        await db.schema.alterTable('console_users').addColumn('credit_limit_nano_usd', 'bigint').execute();
      },
    },
    '0013_key_pauses': {
      async up(db: Kysely<unknown>) {
        // When a key's spend was last flagged as unusual (NULL: it is not now), and when it was paused
        // for it, with why: a paused key is refused until an admin lifts the pause.
        await db.schema.alterTable('api_keys').addColumn('unusual_spend_at', 'bigint').execute();
        await db.schema.alterTable('api_keys').addColumn('paused_at', 'bigint').execute();
        await db.schema.alterTable('api_keys').addColumn('pause_reason', 'text').execute();
      },
    },
  };
}

/**
 * Brings the database's schema up to date; returns the names of the migrations it ran. Throws if
 * one fails. `schema`: the PostgreSQL schema in use — the migrator's own tables are looked up
 * there, not in whichever schema of the database happens to have them.
 */
export async function migrateToLatest(db: Kysely<unknown>, schema?: string): Promise<string[]> {
  const all = migrations();
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => all },
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error !== undefined) throw result.error;
  return (result.results ?? []).filter((step) => step.status === 'Success').map((step) => step.migrationName);
}
