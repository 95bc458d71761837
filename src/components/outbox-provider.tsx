import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useRouteContext } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
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
import { appDb, type OutboxEntity, type QueuedEntry } from '../db/app-db';
import { newIdempotencyKey } from '../lib/idempotency-key';
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
} from '../lib/outbox';
import { overlayData, queuedFields } from '../lib/outbox-overlay';
import { useNetworkEvents } from '../lib/use-network-events';
import { conflictMachine, type KeepMineInput } from '../machines/conflict.machine';
import { waitForLinkBack } from '../machines/flow-support';
import { type OutboxActor, outboxMachine, withRefusedHere } from '../machines/outbox.machine';

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
  /** The user's entries, live from IndexedDB (this tab's and other tabs' changes), oldest first. */
  entries: QueuedEntry[];
  /** The entries were read at least once (after a reload, screens wait for them: issue 17). */
  loaded: boolean;
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

/**
 * A queued edit was applied: the server's record goes into every cached copy of it (detail, list
 * rows) at once, so the screens do not show the old value between the entry leaving the outbox and
 * the refetch.
 */
export function showServerRecord(queryClient: QueryClient, entity: OutboxEntity, record: unknown): void {
  const id = (record as { id?: unknown } | null)?.id;
  if (entity === 'profile' || typeof id !== 'number') return;
  const fresh = record as Record<string, unknown>;
  const apply = (cached: unknown) => {
    if (!cached || typeof cached !== 'object' || (cached as { id?: unknown }).id !== id) return cached;
    const shown: Record<string, unknown> = { ...(cached as Record<string, unknown>) };
    for (const field of Object.keys(shown)) if (field in fresh) shown[field] = fresh[field];
    return shown;
  };
  queryClient.setQueriesData({ queryKey: keysOf(entity) }, (old: unknown) => {
    if (!old || typeof old !== 'object') return old;
    const records = (old as { records?: unknown }).records;
    if (Array.isArray(records)) return { ...(old as object), records: records.map(apply) };
    return apply(old);
  });
}

export function OutboxProvider({ userId, children }: { userId: number; children: ReactNode }) {
  const queryClient = useQueryClient();
  const { session } = useRouteContext({ from: '__root__' });

  const applied = useCallback(
    (entity: OutboxEntity | undefined, result: Result<unknown> | null) => {
      if (entity === 'profile' && result?.data) {
        queryClient.setQueryData(profileKeys.detail(), result.data as Profile);
        session.send({ type: 'profile.updated', profile: result.data as Profile });
      } else if (entity && result?.data) showServerRecord(queryClient, entity, result.data);
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

  const [stored, setStored] = useState<{ entries: QueuedEntry[]; loaded: boolean }>({
    entries: [],
    loaded: false,
  });
  useEffect(() => {
    const subscription = liveQuery(() => loadOutbox(appDb, userId)).subscribe({
      next: (entries) => setStored({ entries, loaded: true }),
      error: () => setStored({ entries: [], loaded: true }),
    });
    return () => subscription.unsubscribe();
  }, [userId]);

  // A refused entry whose "failed" mark IndexedDB did not take is shown failed, as the queue holds it.
  const refusedHere = useSelector(actor, (s) => s.context.refusedHere);
  const value = useMemo(
    () => ({
      actor,
      userId,
      save,
      entries: withRefusedHere(stored.entries, refusedHere),
      loaded: stored.loaded,
    }),
    [actor, userId, save, stored, refusedHere],
  );
  return <OutboxContext.Provider value={value}>{children}</OutboxContext.Provider>;
}

export function useOutbox(): OutboxValue {
  const value = useContext(OutboxContext);
  if (!value) throw new Error('useOutbox needs the OutboxProvider (dashboard layout)');
  return value;
}

/** The user's outbox entries, live from IndexedDB (this tab's and other tabs' changes). */
export function useOutboxEntries(): QueuedEntry[] {
  return useOutbox().entries;
}

export interface QueuedOverlay {
  /** For a query's `select`: its data with the user's queued edits over it (`overlayData`). */
  select: <T>(data: T) => T;
  /** The outbox was read: a form may take its values now (outside the dashboard: at once). */
  ready: boolean;
  /** The record's fields showing a value not sent yet. */
  fieldsOf: (entityId: number) => string[];
  /** Changes when the record's queued edits change: a form keyed by it starts again with them. */
  versionOf: (entityId: number) => string;
}

/**
 * Queued edits of `entity` over what the screens show (issue 17): detail, list rows and edit forms
 * read their query through `select`, so after a reload, offline, the edits still show until sent.
 */
export function useQueuedOverlay(entity: OutboxEntity): QueuedOverlay {
  const outbox = useContext(OutboxContext);
  const entries = outbox?.entries;
  const ready = outbox ? outbox.loaded : true;
  return useMemo(() => {
    const all = entries ?? [];
    const mine = all.filter((e) => e.entity === entity && e.status !== 'failed');
    return {
      select: <T,>(data: T) => overlayData(data, mine, entity),
      ready,
      fieldsOf: (entityId: number) => queuedFields(mine, entity, entityId),
      versionOf: (entityId: number) =>
        mine
          .filter((e) => e.entityId === entityId)
          .map((e) => e.id)
          .join('.'),
    };
  }, [entries, ready, entity]);
}
