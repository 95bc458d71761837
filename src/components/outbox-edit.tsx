import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { createActor, fromPromise } from 'xstate';
import { isConflict } from '../api/outbox';
import { authErrorMessage, errorSentence } from '../lib/error-message';
import { type EditRequest, OUTBOX_MESSAGES, versionOf } from '../lib/outbox';
import { TEXTS } from '../lib/texts';
import { type ConflictActor, conflictMachine, type KeepMineInput } from '../machines/conflict.machine';
import { refreshEntity, type SaveOutcome, useOutbox } from './outbox-provider';
import { ConflictChoiceDialog } from './pending-changes';
import { notify } from './ui/notify';

/**
 * An edit form's save (profile, partner, client, extended service): sent now, or saved on this
 * device when the network is gone (then shown at once over the cached record by `useQueuedOverlay`,
 * and sent later by the outbox);
 * a 409 starts the `conflict` machine and its dialog, where 'Keep mine' sends the edit again against
 * the server's version (a further change asks again) and 'Use theirs' drops it and shows the
 * server's record.
 */

export interface EditSaveOptions {
  /** The server applied it now (docs/product.md#states: message, refresh, navigation). */
  onSent: (outcome: Extract<SaveOutcome, { kind: 'sent' }>) => void;
  /** Saved on this device; after the edit is shown as saved (e.g. go back to the list). */
  onQueued?: () => void;
}

export function useEditSave({ onSent, onQueued }: EditSaveOptions): {
  /** Settles when the edit was sent, kept, or refused (then rejects; the toast is already shown). */
  save: (request: EditRequest) => Promise<SaveOutcome>;
  isPending: boolean;
  conflictDialog: ReactNode;
} {
  const { save } = useOutbox();
  const queryClient = useQueryClient();
  /** The 409 choice under way: a `conflict` actor (the same machine as the outbox's). */
  const [choice, setChoice] = useState<ConflictActor | null>(null);
  const [keeping, setKeeping] = useState(false);
  const saved = (outcome: SaveOutcome) => {
    if (outcome.kind === 'sent') return onSent(outcome);
    notify.info(OUTBOX_MESSAGES.savedOffline);
    onQueued?.();
  };
  // docs/product.md#errors keeps 'fieldName:message' for the profile; every other edit reads as sentences.
  const refused = (error: unknown, request: EditRequest) =>
    notify.error(request.entity === 'profile' ? authErrorMessage(error) : errorSentence(error));
  const choose = (request: EditRequest, current: unknown) => {
    let failure: unknown = null;
    const actor = createActor(
      conflictMachine.provide({
        actors: {
          // 'Keep mine': the same edit again, naming the version the dialog showed.
          keepMine: fromPromise<unknown, KeepMineInput>(({ input }) =>
            save({ ...request, baseVersion: versionOf(input.theirs) }).catch((error: unknown) => {
              failure = error;
              throw error;
            }),
          ),
        },
      }),
      { input: { label: request.label, mine: request.body, theirs: current, closable: true } },
    );
    actor.subscribe({
      next: (s) => setKeeping(s.matches('keeping')),
      complete: () => {
        const out = actor.getSnapshot().output;
        setChoice(null);
        setKeeping(false);
        if (out?.choice === 'kept') saved(out.result as SaveOutcome);
        else if (out?.choice === 'failed') refused(failure, request);
        else if (out?.choice === 'dropped') {
          refreshEntity(queryClient, request.entity);
          notify.info(TEXTS.conflict.dropped);
        }
      },
    });
    actor.start();
    setChoice(actor);
  };
  const mutation = useMutation({
    mutationFn: (request: EditRequest) => save(request),
    // The outbox decides about the network; the mutation itself always runs.
    networkMode: 'always',
    onSuccess: saved,
    onError: (error, request) => {
      if (isConflict(error)) choose(request, error.current);
      else refused(error, request);
    },
  });
  const conflictDialog = choice ? <ConflictChoiceDialog key={choice.id} actor={choice} /> : null;
  return { save: mutation.mutateAsync, isPending: mutation.isPending || keeping, conflictDialog };
}
