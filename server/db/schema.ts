/**
 * The database schema, split by domain under server/db/schema/ (drizzle.config.ts reads this file,
 * so drizzle-kit sees every table through these re-exports).
 */
export * from './schema/accounts';
export * from './schema/approvals';
export * from './schema/campaigns';
export * from './schema/customer-sync';
export * from './schema/figures';
export * from './schema/integrations';
export * from './schema/rewards';
export * from './schema/system';
