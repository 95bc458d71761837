import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { isConflict } from '../api/outbox';
import { authErrorMessage, errorSentence } from '../lib/error-message';
import { type EditRequest, OUTBOX_MESSAGES, versionOf } from '../lib/outbox';
import { refreshEntity, type SaveOutcome, useOutbox } from './outbox-provider';
import { ConflictDialog } from './pending-changes';
import { notify } from './ui/notify';

/**
 * An edit form's save (profile, partner, client, extended service): sent now, or saved on this
 * device when the network is gone (then shown at once over the cached record by `useQueuedOverlay`,
 * and sent later by the outbox);
 * a 409 opens the conflict dialog, where 'Keep mine' sends the edit again against the server's
 * version and 'Use theirs' drops it and shows the server's record.
 */

export interface EditSaveOptions {
  /** The server applied it now (SPEC section 4: message, refresh, navigation). */
  onSent: (outcome: Extract<SaveOutcome, { kind: 'sent' }>) => void;
  /** Saved on this device; after the edit is shown as saved (e.g. go back to the list). */
  onQueued?: () => void;
}

export function useEditSave({ onSent, onQueued }: EditSaveOptions): {
  save: (request: EditRequest) => void;
  isPending: boolean;
  conflictDialog: ReactNode;
} {
  const { save } = useOutbox();
  const queryClient = useQueryClient();
  const [conflict, setConflict] = useState<{ request: EditRequest; current: unknown } | null>(null);
  const mutation = useMutation({
    mutationFn: (request: EditRequest) => save(request),
    // The outbox decides about the network; the mutation itself always runs.
    networkMode: 'always',
    onSuccess: (outcome) => {
      setConflict(null);
      if (outcome.kind === 'sent') return onSent(outcome);
      notify.info(OUTBOX_MESSAGES.savedOffline);
      onQueued?.();
    },
    onError: (error, request) => {
      if (isConflict(error)) setConflict({ request, current: error.current });
      // SPEC section 8 keeps 'fieldName:message' for the profile; every other edit reads as sentences.
      else notify.error(request.entity === 'profile' ? authErrorMessage(error) : errorSentence(error));
    },
  });
  const conflictDialog = (
    <ConflictDialog
      open={conflict !== null}
      label={conflict?.request.label ?? ''}
      mine={conflict?.request.body}
      theirs={conflict?.current}
      pending={mutation.isPending}
      onClose={() => setConflict(null)}
      onKeepMine={() => {
        if (!conflict) return;
        mutation.mutate({ ...conflict.request, baseVersion: versionOf(conflict.current) });
      }}
      onUseTheirs={() => {
        if (!conflict) return;
        setConflict(null);
        refreshEntity(queryClient, conflict.request.entity);
        notify.info('Your change was dropped; the form shows the record as it is now.');
      }}
    />
  );
  return { save: mutation.mutate, isPending: mutation.isPending, conflictDialog };
}
