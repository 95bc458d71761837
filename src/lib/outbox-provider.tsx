import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useRouteContext } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { liveQuery } from 'dexie';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { fromPromise } from 'xstate';
import type { Profile } from '../../contract/profile';
import { probeServer } from '../api/auth';
import { ApiError, type Result } from '../api/client';
import { customerKeys } from '../api/customers';
import { extendedServiceKeys } from '../api/extended-services';
import { sendEdit } from '../api/outbox';
import { partnerKeys } from '../api/partners';
import { profileKeys } from '../api/profile';
import { appDb, type OutboxEntity } from '../db/app-db';
import { conflictMachine, type KeepMineInput } from '../machines/conflict.machine';
import { waitForLinkBack } from '../machines/flow-support';
import { newIdempotencyKey } from '../machines/idempotency-key';
import { type OutboxActor, outboxMachine, type QueuedEntry } from '../machines/outbox.machine';
import {
  type EditRequest,
  enqueueEdit,
  hasQueuedEdit,
  keepMine,
  loadOutbox,
  markEntry,
  removeEntry,
  sentEntry,
  versionOf,
} from './outbox';
import { useNetworkEvents } from './use-network-events';

/**
 * The app-wide outbox for the signed-in user (mounted by the dashboard layout): the outbox machine
 * with its effects on IndexedDB and the API, the browser's online/offline events, and `save` for the
 * edit forms: send now when the network is there, else (or when the call gets no answer) keep the
 * edit in the outbox under the same Idempotency-Key, so it is applied once either way.
 */

export type SaveOutcome = { kind: 'sent'; data: unknown; message: string } | { kind: 'queued' };

interface OutboxValue {
  actor: OutboxActor;
  userId: number;
  save: (request: EditRequest) => Promise<SaveOutcome>;
}

const OutboxContext = createContext<OutboxValue | null>(null);

const OUTBOX_LOCK = 'reward-club-outbox';

/** One tab at a time sends (Web Locks where the browser has them): two tabs never send one entry twice. */
function exclusively<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? (locks.request(OUTBOX_LOCK, work) as Promise<T>) : work();
}

/** The queries showing what an entity's edit changed. */
export function keysOf(entity: OutboxEntity): readonly unknown[] {
  switch (entity) {
    case 'profile':
      return profileKeys.all;
    case 'partner':
      return partnerKeys.all;
    case 'customer':
      return customerKeys.all;
    case 'extended-service':
      return extendedServiceKeys.all;
  }
}

export function refreshEntity(queryClient: QueryClient, entity: OutboxEntity | undefined): void {
  if (entity) void queryClient.invalidateQueries({ queryKey: keysOf(entity) });
}

export function OutboxProvider({ userId, children }: { userId: number; children: ReactNode }) {
  const queryClient = useQueryClient();
  const { session } = useRouteContext({ from: '__root__' });

  const applied = useCallback(
    (entity: OutboxEntity | undefined, result: Result<unknown> | null) => {
      if (entity === 'profile' && result?.data) {
        queryClient.setQueryData(profileKeys.detail(), result.data as Profile);
        session.send({ type: 'profile.updated', profile: result.data as Profile });
      }
      refreshEntity(queryClient, entity);
    },
    [queryClient, session],
  );

  const machine = useMemo(
    () =>
      outboxMachine.provide({
        actors: {
          loadEntries: fromPromise(() => loadOutbox(appDb, userId)),
          sendEntry: fromPromise<unknown, { entry: QueuedEntry }>(async ({ input: { entry } }) => {
            const result = await exclusively(async () => {
              // Another tab may have sent it while this one waited for the lock.
              if (!(await appDb.outbox.get(entry.id))) return null;
              const sent = await sendEdit({
                method: entry.method as 'POST' | 'PATCH',
                path: entry.path,
                body: entry.body,
                entity: entry.entity ?? 'partner',
                entityId: entry.entityId ?? null,
                baseVersion: entry.baseVersion ?? null,
                idempotencyKey: entry.idempotencyKey,
              });
              await sentEntry(appDb, entry, versionOf(sent.data));
              return sent;
            });
            applied(entry.entity, result);
            return result;
          }),
          markEntry: fromPromise(
            ({ input }: { input: { id: number; status: 'pending' | 'failed'; error: string | null } }) =>
              markEntry(appDb, input.id, input.status, input.error),
          ),
          discardEntry: fromPromise(async ({ input }: { input: { id: number } }) => {
            const entry = await removeEntry(appDb, input.id);
            refreshEntity(queryClient, entry?.entity);
          }),
          // The 409 choice: 'Keep mine' makes the entry name the server's current version.
          choice: conflictMachine.provide({
            actors: {
              keepMine: fromPromise<unknown, KeepMineInput>(({ input }) =>
                keepMine(appDb, input.subject as QueuedEntry, input.theirs),
              ),
            },
          }),
          // After an outage, the queue resumes as soon as the server answers again (issue 17).
          linkBack: fromPromise(({ signal }) => waitForLinkBack(probeServer, { signal })),
        },
      }),
    [userId, queryClient, applied],
  );
  const actor = useActorRef(machine, { input: { userId } });

  useNetworkEvents(actor);
  // Signed in again after the session expired with edits queued: send them now.
  useEffect(() => {
    const subscription = session.on('session.resumed', () => actor.send({ type: 'network.online' }));
    return () => subscription.unsubscribe();
  }, [session, actor]);

  const save = useCallback(
    async (request: EditRequest): Promise<SaveOutcome> => {
      const key = newIdempotencyKey();
      const queue = async () => {
        await enqueueEdit(appDb, userId, request, key);
        actor.send({ type: 'outbox.changed' });
        return { kind: 'queued' } as const;
      };
      // Offline, or behind an unsent edit of the same record (edits of a record go in order).
      if (!navigator.onLine || (await hasQueuedEdit(appDb, userId, request.entity, request.entityId))) {
        return queue();
      }
      try {
        const sent = await sendEdit({ ...request, idempotencyKey: key });
        return { kind: 'sent', data: sent.data, message: sent.message };
      } catch (error) {
        // No answer: it may or may not have arrived; the same key makes the resend apply it once.
        if (error instanceof ApiError && error.status === 0) return queue();
        throw error;
      }
    },
    [actor, userId],
  );

  const value = useMemo(() => ({ actor, userId, save }), [actor, userId, save]);
  return <OutboxContext.Provider value={value}>{children}</OutboxContext.Provider>;
}

export function useOutbox(): OutboxValue {
  const value = useContext(OutboxContext);
  if (!value) throw new Error('useOutbox needs the OutboxProvider (dashboard layout)');
  return value;
}

/** The user's outbox entries, live from IndexedDB (this tab's and other tabs' changes). */
export function useOutboxEntries(): QueuedEntry[] {
  const { userId } = useOutbox();
  const [entries, setEntries] = useState<QueuedEntry[]>([]);
  useEffect(() => {
    const subscription = liveQuery(() => loadOutbox(appDb, userId)).subscribe({
      next: setEntries,
      error: () => setEntries([]),
    });
    return () => subscription.unsubscribe();
  }, [userId]);
  return entries;
}
