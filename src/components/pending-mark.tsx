import { css } from '../../styled-system/css';
import type { OutboxEntity } from '../db/app-db';
import { useQueuedOverlay } from './outbox-provider';
import { fieldLabel } from './pending-changes';

/**
 * Issue 17: a record showing edits saved on this device and not sent yet says so — a badge in a
 * list row, a notice naming the fields on its page and in its edit form.
 */

export const PENDING_MARK = 'Not sent yet';
const PENDING_TITLE = 'Saved on this device; it will be sent when the network is there.';

const tone = {
  fontSize: 'xs',
  fontWeight: 'semibold',
  color: 'brand.900',
  bg: 'brand.50',
  borderWidth: '1px',
  borderColor: 'brand.100',
} as const;

/** In a list row, beside the record's name: shown while edits of the record wait in the outbox. */
export function PendingBadge({ entity, entityId }: { entity: OutboxEntity; entityId: number }) {
  const queued = useQueuedOverlay(entity).fieldsOf(entityId);
  if (queued.length === 0) return null;
  return (
    <span
      title={PENDING_TITLE}
      className={css({ ...tone, ml: '2', px: '2', py: '0.5', borderRadius: 'full', whiteSpace: 'nowrap' })}
    >
      {PENDING_MARK}
    </span>
  );
}

/** Under a record's header (its page, its edit form): which fields show a value not sent yet. */
export function PendingNotice({ fields }: { fields: readonly string[] }) {
  if (fields.length === 0) return null;
  return (
    <p
      role="status"
      title={PENDING_TITLE}
      className={css({ ...tone, display: 'inline-flex', mb: '4', px: '2', py: '1', borderRadius: 'sm' })}
    >
      {PENDING_MARK}: {fields.map(fieldLabel).join(', ')} (saved on this device)
    </p>
  );
}
