/**
 * Optimistic concurrency on the edits that may be sent late (issue 6, docs/decisions: outbox).
 * The SPA sends the version it edited, the record's `updatedAt` as read, in an `If-Match` header
 * (`If-Match: "2026-03-02T09:00:00.000Z"`); the server answers 409 with the current record in
 * `data` when the record changed meanwhile. Without the header there is no check (old clients).
 */
export const VERSION_HEADER = 'If-Match';

export const concurrencyMessages = {
  recordChanged: 'This record was changed by someone else.',
  invalidVersion: 'If-Match must be the record version (its updatedAt) in quotes',
} as const;

/** The header value naming a version: the entity tag is the ISO timestamp in quotes. */
export const versionTag = (updatedAt: string): string => `"${updatedAt}"`;

/** The version an `If-Match` value names (ms since epoch), null for '*' or none, NaN when malformed. */
export function parseVersionTag(value: string | undefined | null): number | null {
  if (value === undefined || value === null) return null;
  const text = value.trim();
  if (text === '*' || text === '') return null;
  const match = /^(?:W\/)?"?(\d{4}-\d{2}-\d{2}T[0-9:.]+(?:Z|[+-]\d{2}:\d{2}))"?$/.exec(text);
  return match?.[1] ? Date.parse(match[1]) : Number.NaN;
}
