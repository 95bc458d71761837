import { createHash } from 'node:crypto';
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { idempotencyKeySchema } from '../../contract/api';
import type { ErrorCode } from '../../contract/error-codes';
import type { Db, DbOrTx, Tx } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { envelope, errorEnvelope } from '../errors';

/**
 * Idempotency-Key on money calls (docs/product.md#data, docs/decisions/007-ledger-and-otp.md).
 *
 * The key row is inserted FIRST, inside the transaction of the work, with ON CONFLICT DO NOTHING.
 * A concurrent duplicate's insert waits on the unique index until the first transaction ends: on
 * commit it finds the stored answer and returns it; on rollback its own insert goes through and it
 * runs the work itself. So two requests with one key never both execute, and the answer is stored
 * in the same transaction as the change it describes.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const idempotencyMessages = {
  mismatch: 'Idempotency-Key was used with a different request',
  inProgress: 'A request with this Idempotency-Key is in progress',
  invalid: 'Idempotency-Key must be 1 to 200 visible characters',
} as const;

/** 1..200 visible ASCII characters (UUIDs, ULIDs, anything a client makes): the contract's header schema. */
export const isValidIdempotencyKey = (key: string) => idempotencyKeySchema.safeParse(key).success;

/** Stable JSON (sorted keys), so the same body in another key order is the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const requestHash = (route: string, body: unknown) =>
  createHash('sha256')
    .update(`${route}\n${canonicalJson(body)}`)
    .digest('hex');

/** What a money call answers. `store: false` commits the work but does not keep the answer (a refusal). */
export type Answer = {
  status: number;
  body: unknown;
  store: boolean;
  /** Headers of a refusal (a 429's Retry-After). */
  headers?: Record<string, string>;
};

export const success = (data: unknown, message: string, status = 200): Answer => ({
  status,
  body: envelope(true, data, message),
  store: true,
});

/** A refusal whose side effects (a counted attempt, a lazily persisted expiry) must still commit. */
export const refusal = (
  status: number,
  message: string,
  o: { fieldName?: string; code?: ErrorCode; headers?: Record<string, string> } = {},
): Answer => ({
  status,
  body: errorEnvelope(
    status,
    null,
    message,
    o.fieldName ? [{ fieldName: o.fieldName, message }] : [],
    o.code,
  ),
  store: false,
  ...(o.headers ? { headers: o.headers } : {}),
});

export type IdempotencyOutcome =
  | { kind: 'fresh'; answer: Answer }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'mismatch' }
  | { kind: 'inProgress' };

/** How long a key is kept: a retry within this window replays; after it the key is forgotten. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** At most one purge per database every this often, per process (a purge is one indexed DELETE). */
export const IDEMPOTENCY_PURGE_EVERY_MS = 10 * 60 * 1000;
/** Rows deleted per purge, so one purge stays short however far behind it is. */
export const IDEMPOTENCY_PURGE_BATCH = 1000;

/**
 * Deletes keys older than IDEMPOTENCY_KEY_TTL_MS (oldest first, at most IDEMPOTENCY_PURGE_BATCH,
 * through the created_at index). Returns how many went.
 */
export async function purgeIdempotencyKeys(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS);
  const deleted = await db
    .delete(idempotencyKeys)
    .where(
      sql`${idempotencyKeys.id} in (select id from ${idempotencyKeys} where ${lt(idempotencyKeys.createdAt, cutoff)} order by created_at limit ${IDEMPOTENCY_PURGE_BATCH})`,
    )
    .returning({ id: idempotencyKeys.id });
  return deleted.length;
}

const lastPurge = new WeakMap<Db, number>();

/**
 * Opportunistic purge when a new key was stored: at most once per IDEMPOTENCY_PURGE_EVERY_MS per
 * database handle, outside the money transaction, and a failure only skips this round.
 */
async function purgeNowAndThen(db: Db, now: Date) {
  const last = lastPurge.get(db);
  if (last !== undefined && now.getTime() - last < IDEMPOTENCY_PURGE_EVERY_MS) return;
  lastPurge.set(db, now.getTime());
  try {
    await purgeIdempotencyKeys(db, now);
  } catch {
    // A purge is housekeeping: the answer already committed must not fail because of it.
  }
}

/**
 * A caller's key: a partner API key's principal id is minus its key id (server/http/access.ts), so
 * its keys live in their own space (api_key_id), apart from every staff member's.
 */
function keyRow(userId: number, key: string) {
  const principal = userId < 0 ? { userId: null, apiKeyId: -userId } : { userId, apiKeyId: null };
  const mine = and(
    principal.apiKeyId === null
      ? eq(idempotencyKeys.userId, userId)
      : eq(idempotencyKeys.apiKeyId, principal.apiKeyId),
    eq(idempotencyKeys.key, key),
  );
  return { principal, mine };
}

/**
 * The stored answer of a finished request with this key, read without running anything: a retry
 * answered before it takes a place in a rate limit (a code request, issue 31 item 8). Null when there
 * is none inside the window, or the first request is still running (then `runIdempotent` waits).
 */
export async function storedOutcome(
  db: Db,
  o: { key: string | undefined; userId: number; route: string; body: unknown; now: Date },
): Promise<IdempotencyOutcome | null> {
  if (!o.key) return null;
  const { mine } = keyRow(o.userId, o.key);
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(mine, gte(idempotencyKeys.createdAt, new Date(o.now.getTime() - IDEMPOTENCY_KEY_TTL_MS))))
    .limit(1);
  if (!row) return null;
  if (row.route !== o.route || row.requestHash !== requestHash(o.route, o.body)) return { kind: 'mismatch' };
  if (row.responseStatus == null) return null;
  return { kind: 'replay', status: row.responseStatus, body: row.responseBody };
}

/** Forgets a key whose stored answer no longer holds (a code that could not be mailed was withdrawn). */
export async function forgetIdempotencyKey(db: DbOrTx, userId: number, key: string | undefined) {
  if (key) await db.delete(idempotencyKeys).where(keyRow(userId, key).mine);
}

/**
 * Runs `work` in one transaction guarded by the key (or plainly, without a key). A thrown error
 * rolls everything back, the key row included, so a retry runs again. After a new key was stored,
 * keys older than a day are purged now and then (purgeNowAndThen).
 */
export async function runIdempotent(
  db: Db,
  /** `userId`: the caller's principal id, a staff member's id or (negative) a partner API key's. */
  o: { key: string | undefined; userId: number; route: string; body: unknown; now: Date },
  work: (tx: Tx) => Promise<Answer>,
): Promise<IdempotencyOutcome> {
  if (!o.key) return { kind: 'fresh', answer: await db.transaction((tx) => work(tx as Tx)) };
  const key = o.key;
  const hash = requestHash(o.route, o.body);
  const { principal, mine } = keyRow(o.userId, key);
  const outcome = await db.transaction(async (raw) => {
    const tx = raw as Tx;
    // The window holds at lookup too: a key older than IDEMPOTENCY_KEY_TTL_MS is forgotten now, not
    // at the next purge, so it never replays an answer from more than a day ago.
    await tx
      .delete(idempotencyKeys)
      .where(and(mine, lt(idempotencyKeys.createdAt, new Date(o.now.getTime() - IDEMPOTENCY_KEY_TTL_MS))));
    const inserted = await tx
      .insert(idempotencyKeys)
      .values({ ...principal, key, route: o.route, requestHash: hash, createdAt: o.now })
      .onConflictDoNothing()
      .returning({ id: idempotencyKeys.id });
    if (inserted.length === 0) {
      const [row] = await tx.select().from(idempotencyKeys).where(mine).limit(1);
      if (!row) return { kind: 'inProgress' } as const;
      if (row.route !== o.route || row.requestHash !== hash) return { kind: 'mismatch' } as const;
      if (row.responseStatus == null) return { kind: 'inProgress' } as const;
      return { kind: 'replay', status: row.responseStatus, body: row.responseBody } as const;
    }
    const answer = await work(tx);
    if (answer.store) {
      await tx
        .update(idempotencyKeys)
        .set({ responseStatus: answer.status, responseBody: answer.body as object })
        .where(mine);
    } else {
      await tx.delete(idempotencyKeys).where(mine);
    }
    return { kind: 'fresh', answer } as const;
  });
  if (outcome.kind === 'fresh' && outcome.answer.store) await purgeNowAndThen(db, o.now);
  return outcome;
}
