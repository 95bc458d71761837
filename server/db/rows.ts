import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from './client';

/** Runs raw SQL and returns its rows, for either driver (node-postgres and PGlite give `{ rows }`; an array is accepted too). */
export async function executeRows<T extends Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: unknown[] }).rows ?? []) as T[];
}

/** `a, b, c` of an ORDER BY. */
export const orderSql = (orderBy: SQL[]) => sql.join(orderBy, sql`, `);
/** `where ...`, or nothing. */
export const whereSql = (where: SQL | undefined) => (where ? sql`where ${where}` : sql``);
