import type { UseQueryResult } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { LogoSpinner } from './logo-spinner';
import type { QueuedOverlay } from './outbox-provider';
import { PendingNotice } from './pending-mark';
import { QueryBody } from './query-body';

/**
 * The body of an edit screen whose saves may wait on this device (the customer, partner and
 * extended-service edits; decision 010, issue 17): the record's query with the queued edits laid
 * over it (`select: overlay.select`), a spinner until both are read, the forbidden state or the
 * error, then the fields still waiting and the form.
 *
 * The form starts again (a new key) on a new version from the server (e.g. 'Use theirs' after a
 * 409) and when a queued edit is sent or dropped, so it always starts from what the user sees.
 */
export function QueuedEditBody<T extends { id: number; updatedAt?: string | undefined }>({
  query,
  overlay,
  loadingLabel,
  children,
}: {
  query: UseQueryResult<T>;
  overlay: QueuedOverlay;
  loadingLabel: string;
  children: (record: T) => ReactNode;
}) {
  if (!overlay.ready) return <LogoSpinner label={loadingLabel} />;
  return (
    <QueryBody query={query} loadingLabel={loadingLabel}>
      {(record) => (
        <>
          <PendingNotice fields={overlay.fieldsOf(record.id)} />
          <Fragment key={`${record.id}:${record.updatedAt}:${overlay.versionOf(record.id)}`}>
            {children(record)}
          </Fragment>
        </>
      )}
    </QueryBody>
  );
}
