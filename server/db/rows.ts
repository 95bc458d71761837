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

/**
 * Rows per multi-row INSERT of a bulk write (a campaign's batch, its events and webhook deliveries):
 * building one statement (drizzle, then the driver's parameters) runs on the server's one thread, and
 * a request arriving meanwhile waits for it. Measured on a campaign of 100,000 at an idle moment
 * (decision 070, "Speed at 100,000"): 1,000-2,000 rows a statement held the campaign list up to
 * ~250 ms (p95 237 ms); 250 rows, p95 ~120 ms but the run 125-128 s (more statements); 500 rows,
 * p95 147 ms and the run 117 s. Well under PostgreSQL's 65,535 parameters at 18 a row.
 */
export const ROWS_PER_STATEMENT = 500;
