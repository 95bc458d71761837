import { customType, integer, timestamp } from 'drizzle-orm/pg-core';

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
