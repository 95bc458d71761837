import type { AppDb, OutboxEntity, OutboxEntry, QueuedEntry } from '../db/app-db';
import { TEXTS } from './texts';

/**
 * The outbox store (IndexedDB, the `outbox` table of src/db/app-db.ts): edits saved on this device
 * while the network is gone, sent later by the outbox machine (src/machines/outbox.machine.ts).
 * Only edits that are safe to send late go here: profile, partner, customer and extended services.
 * Money calls (issue, redeem, reverse) never do: they need the network and say so.
 */

export const OUTBOX_MESSAGES = TEXTS.outbox;

/** One edit as a form hands it over: the call, what it changes, and the version it was made on. */
export interface EditRequest {
  method: 'POST' | 'PATCH';
  path: string;
  body: unknown;
  label: string;
  entity: OutboxEntity;
  /** The record's id; null for a creation. */
  entityId: number | null;
  /** The record's updatedAt as the form read it (sent in If-Match); null: no version check. */
  baseVersion: string | null;
}

/** The user's entries, oldest first. */
export async function loadOutbox(db: AppDb, userId: number): Promise<QueuedEntry[]> {
  const rows = await db.outbox.where('userId').equals(userId).sortBy('id');
  return rows.filter((r): r is QueuedEntry => r.id !== undefined);
}

export async function enqueueEdit(
  db: AppDb,
  userId: number,
  request: EditRequest,
  idempotencyKey: string,
  now = Date.now(),
): Promise<number> {
  const entry: OutboxEntry = {
    idempotencyKey,
    method: request.method,
    path: request.path,
    body: request.body,
    createdAt: now,
    userId,
    label: request.label,
    entity: request.entity,
    entityId: request.entityId,
    baseVersion: request.baseVersion,
    status: 'pending',
    error: null,
  };
  return (await db.outbox.add(entry)) as number;
}

/** True when an unsent edit of this record waits: a new edit must queue behind it, in order. */
export async function hasQueuedEdit(
  db: AppDb,
  userId: number,
  entity: OutboxEntity,
  entityId: number | null,
): Promise<boolean> {
  if (entityId === null) return false;
  const rows = await loadOutbox(db, userId);
  return rows.some((r) => r.entity === entity && r.entityId === entityId);
}

export async function markEntry(
  db: AppDb,
  id: number,
  status: 'pending' | 'failed',
  error: string | null,
): Promise<void> {
  await db.outbox.update(id, { status, error });
}

export async function removeEntry(db: AppDb, id: number): Promise<OutboxEntry | undefined> {
  const entry = await db.outbox.get(id);
  await db.outbox.delete(id);
  return entry;
}

/**
 * After an entry was applied: later edits of the same record made on the same version were made on
 * top of this one, so they now name the version the server gave it (no 409 against our own change).
 */
export async function sentEntry(db: AppDb, entry: QueuedEntry, newVersion: string | null): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    await db.outbox.delete(entry.id);
    if (!newVersion || entry.entityId == null) return;
    await db.outbox
      .where('userId')
      .equals(entry.userId ?? -1)
      .filter(
        (r) =>
          r.entity === entry.entity && r.entityId === entry.entityId && r.baseVersion === entry.baseVersion,
      )
      .modify({ baseVersion: newVersion });
  });
}

/** 'Keep mine': the entry is sent again, now naming the server's version it was shown. */
export async function keepMine(db: AppDb, entry: QueuedEntry, current: unknown): Promise<void> {
  const version = versionOf(current);
  await db.outbox.update(entry.id, { baseVersion: version, status: 'pending', error: null });
}

/** A record's version: its updatedAt, when it has one. */
export function versionOf(record: unknown): string | null {
  const updatedAt = (record as { updatedAt?: unknown } | null)?.updatedAt;
  return typeof updatedAt === 'string' ? updatedAt : null;
}

/** Sign out anyway: the user's unsent changes go (the sign-out wipe removes the rest). */
export async function discardAll(db: AppDb, userId: number): Promise<void> {
  await db.outbox.where('userId').equals(userId).delete();
}
