import type { OutboxEntity, OutboxEntry } from '../db/app-db';

/**
 * Queued edits over cached data (issue 17, defect 4): what a screen shows of a record is the
 * server's record as last fetched (the query cache, restored from IndexedDB after a reload) with
 * the user's unsent edits of it (the outbox, also in IndexedDB) laid over it, field by field, oldest
 * first. The cache itself is never changed, so dropping an edit ('Use theirs', Discard) shows the
 * server's record again at once, and a reload shows the same as before it.
 */

/**
 * Body fields that are not the record's own (ids naming it), not shown as sent (images), or the
 * version: `updatedAt` stays the server's, the version a next edit names in If-Match.
 */
const NOT_OVERLAID = new Set([
  'id',
  'partnerId',
  'customerId',
  'extendedServiceId',
  'coverImage',
  'profileImage',
  'createdAt',
  'updatedAt',
]);

type Edit = Pick<OutboxEntry, 'entity' | 'entityId' | 'body' | 'status'>;

/** The edits of one record still to be sent, oldest first (a refused one is not shown as the value). */
const editsOf = (entries: readonly Edit[], entity: OutboxEntity, entityId: number) =>
  entries.filter((e) => e.entity === entity && e.entityId === entityId && e.status !== 'failed');

/**
 * The record's queued edits composed field by field, oldest first: a later edit changes only the
 * fields it names, so two edits of different fields both show, and a later edit of the same field
 * wins. Null when nothing of this record waits.
 */
export function queuedPatch(
  entries: readonly Edit[],
  entity: OutboxEntity,
  entityId: number,
): Record<string, unknown> | null {
  const edits = editsOf(entries, entity, entityId);
  if (edits.length === 0) return null;
  const patch: Record<string, unknown> = {};
  for (const edit of edits) {
    for (const [field, value] of Object.entries((edit.body ?? {}) as Record<string, unknown>)) {
      if (!NOT_OVERLAID.has(field) && value !== undefined) patch[field] = value;
    }
  }
  return patch;
}

/** One record with its queued edits over it; the same object when none waits. */
export function overlayRecord<T>(record: T, entries: readonly Edit[], entity: OutboxEntity): T {
  if (!record || typeof record !== 'object') return record;
  const id = (record as { id?: unknown }).id;
  if (typeof id !== 'number') return record;
  const patch = queuedPatch(entries, entity, id);
  if (!patch) return record;
  const fields = record as Record<string, unknown>;
  const shown: Record<string, unknown> = { ...fields };
  for (const [field, value] of Object.entries(patch)) {
    // Only the record's own fields, as the record holds them (a list of ids stays a list).
    if (field in fields && Array.isArray(fields[field]) === Array.isArray(value)) shown[field] = value;
  }
  return shown as T;
}

/** A query's data (one record, or a list page `{ records }`) with the queued edits over it. */
export function overlayData<T>(data: T, entries: readonly Edit[], entity: OutboxEntity): T {
  if (!data || typeof data !== 'object' || entries.length === 0) return data;
  const records = (data as { records?: unknown }).records;
  if (Array.isArray(records)) {
    const shown = records.map((r) => overlayRecord(r, entries, entity));
    return shown.some((r, i) => r !== records[i]) ? ({ ...data, records: shown } as T) : data;
  }
  return overlayRecord(data, entries, entity);
}

/** The fields of the record that show a value not sent yet, in the order first edited. */
export function queuedFields(entries: readonly Edit[], entity: OutboxEntity, entityId: number): string[] {
  return Object.keys(queuedPatch(entries, entity, entityId) ?? {});
}
