import { customType, integer, text, timestamp } from 'drizzle-orm/pg-core';

/** numeric(14,2) naira, read back as a JS number. */
export const money = customType<{ data: number; driverData: string }>({
  dataType: () => 'numeric(14, 2)',
  fromDriver: (v) => Number(v),
  toDriver: (v) => v.toFixed(2),
});

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => Buffer.from(v),
});

export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const id = () => integer('id').primaryKey().generatedAlwaysAsIdentity();

/** An account's status (partners, staff, customers): ACTIVE until someone blocks it. */
export const accountStatus = () =>
  text('account_status', { enum: ['ACTIVE', 'BLOCKED'] })
    .notNull()
    .default('ACTIVE');

/** When a row was made and last changed. */
export const timestamps = () => ({
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** The same, and when it was deleted: a soft delete keeps the row (null while it is live). */
export const softDeletable = () => ({ ...timestamps(), deletedAt: ts('deleted_at') });
