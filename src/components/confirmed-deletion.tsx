import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { errorSentence } from '../lib/error-message';
import { ConfirmDeletion } from './confirm-dialog';
import { notify } from './ui/notify';

/**
 * A deletion asked for, confirmed in the 'Confirm Deletion' dialog, then done: the success toast,
 * the queries to refresh, then `onDeleted` (leave a detail screen, keep a tab). An error is a toast.
 */
export function useConfirmedDeletion<T>({
  remove,
  deleted,
  question,
  invalidate,
  onDeleted,
}: {
  remove: (record: T) => Promise<unknown>;
  /** The success toast. */
  deleted: string;
  /** The dialog's question about this record. */
  question: (record: T) => ReactNode;
  /** Query keys refreshed after the deletion (after `onDeleted` when that leaves the screen). */
  invalidate: QueryKey[];
  onDeleted?: (record: T) => Promise<unknown> | undefined;
}) {
  const queryClient = useQueryClient();
  const [record, setRecord] = useState<T | null>(null);
  const mutation = useMutation({
    mutationFn: (r: T) => remove(r),
    onSuccess: async (_answer, r) => {
      setRecord(null);
      notify.success(deleted);
      await onDeleted?.(r);
      for (const queryKey of invalidate) void queryClient.invalidateQueries({ queryKey });
    },
    onError: (error) => {
      setRecord(null);
      notify.error(errorSentence(error));
    },
  });
  const dialog = (
    <ConfirmDeletion
      open={record !== null}
      onOpenChange={(open) => !open && setRecord(null)}
      onConfirm={() => record !== null && mutation.mutate(record)}
      pending={mutation.isPending}
    >
      {record !== null ? question(record) : null}
    </ConfirmDeletion>
  );
  return { ask: setRecord, dialog };
}
