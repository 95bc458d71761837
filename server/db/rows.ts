import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from './client';

/** Runs raw SQL and returns its rows, for either driver (node-postgres and PGlite give `{ rows }`; an array is accepted too). */
export async function executeRows<T extends Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: unknown[] }).rows ?? []) as T[];
}
