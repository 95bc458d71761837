import { bigint, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { id, ts } from './columns';

/* The subscriber sync (issue 27, docs/decisions/051): club keys and customer import jobs. */

/**
 * Club integration keys: `rcc_<prefix>_<secret>`, as partner keys (prefix finds the row, SHA-256 of
 * the 256-bit secret compared in constant time), with scopes instead of partner permissions.
 */
export const clubApiKeys = pgTable(
  'club_api_keys',
  {
    id: id(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [uniqueIndex('club_api_keys_prefix_uq').on(t.prefix)],
);

/**
 * One import job. The upload stages every row (customer_import_rows) and marks the job queued; a
 * leased worker (server/customer-import-worker.ts) applies the rows in order, a batch per
 * transaction that also moves `next_row` and the counts, so a process killed half way is resumed by
 * the next lease without applying a row twice.
 */
export const customerImports = pgTable(
  'customer_imports',
  {
    id: id(),
    state: text('state', { enum: ['receiving', 'queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('receiving'),
    fileName: text('file_name').notNull(),
    format: text('format', { enum: ['csv', 'ndjson'] }).notNull(),
    /** The staff member who sent it; null when a club key did (clubKeyId). */
    createdBy: integer('created_by').references(() => users.id),
    clubKeyId: integer('club_key_id').references(() => clubApiKeys.id),
    /** Who and from where, for the import's event in the activity log. */
    actor: jsonb('actor').$type<Record<string, unknown>>().notNull(),
    rowsRead: integer('rows_read').notNull().default(0),
    /** The last row number applied (rows are numbered from 1, the header not counted). */
    nextRow: integer('next_row').notNull().default(1),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    rejected: integer('rejected').notNull().default(0),
    error: text('error'),
    leaseOwner: text('lease_owner'),
    leaseUntil: ts('lease_until'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [index('customer_imports_state_idx').on(t.state, t.id)],
);

/** The staged rows of an import not yet applied (deleted as they are applied). */
export const customerImportRows = pgTable(
  'customer_import_rows',
  {
    importId: integer('import_id')
      .notNull()
      .references(() => customerImports.id, { onDelete: 'cascade' }),
    rowNumber: integer('row_number').notNull(),
    externalId: text('external_id').notNull(),
    record: jsonb('record').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.rowNumber] }),
    uniqueIndex('customer_import_rows_external_id_uq').on(t.importId, t.externalId),
  ],
);

/** Each rejected row of an import: its number, the reason in words, and the row as sent. */
export const customerImportRejects = pgTable(
  'customer_import_rejects',
  {
    importId: integer('import_id')
      .notNull()
      .references(() => customerImports.id, { onDelete: 'cascade' }),
    rowNumber: bigint('row_number', { mode: 'number' }).notNull(),
    externalId: text('external_id'),
    reason: text('reason').notNull(),
    raw: text('raw').notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.rowNumber] })],
);
