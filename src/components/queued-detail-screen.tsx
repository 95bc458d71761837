import { type QueryKey, type UseQueryOptions, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { OutboxEntity } from '../db/app-db';
import { DetailQueryScreen } from './detail-screen';
import { useQueuedOverlay } from './outbox-provider';

/**
 * `DetailQueryScreen` of a record this device may hold queued edits of (issue 17): its query with
 * those edits laid over, and the fields they change handed to the content beside the record.
 */
export function QueuedDetailScreen<T extends { id: number }, K extends QueryKey>({
  entity,
  options,
  children,
  ...screen
}: Omit<Parameters<typeof DetailQueryScreen<T>>[0], 'query' | 'children'> & {
  entity: OutboxEntity;
  options: UseQueryOptions<T, Error, T, K>;
  children: (record: T, queued: string[]) => ReactNode;
}) {
  const overlay = useQueuedOverlay(entity);
  return (
    <DetailQueryScreen {...screen} query={useQuery({ ...options, select: overlay.select })}>
      {(record) => children(record, overlay.fieldsOf(record.id))}
    </DetailQueryScreen>
  );
}
