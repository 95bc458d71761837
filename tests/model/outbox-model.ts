import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { concurrencyMessages } from '../../contract/concurrency';
import type { QueuedEntry } from '../../src/db/app-db';
import type { ConflictOutput } from '../../src/machines/conflict.machine';
import { nextPending, type OutboxContext, outboxMachine } from '../../src/machines/outbox.machine';
import type { FlowModel } from './flow-engine';

/**
 * The outbox flow model (issue 6): which answers and clicks are tried in each state, and how a tester
 * reads them. Shared by tests/model/outbox.test.ts and `npm run flows`.
 */

const queued = (id: number, label: string, extra: Partial<QueuedEntry> = {}): QueuedEntry => ({
  id,
  idempotencyKey: `key-${id}`,
  method: 'PATCH',
  path: id === 2 ? '/admin/user/customers' : '/admin/partners/update-record',
  body: id === 2 ? { customerId: 42, address: '9 Marina' } : { partnerId: 3, address: '1 Allen Avenue' },
  createdAt: 1_700_000_000_000 + id,
  userId: 1,
  label,
  entity: id === 2 ? 'customer' : 'partner',
  entityId: id === 2 ? 42 : 3,
  baseVersion: '2026-03-02T09:00:00.000Z',
  status: 'pending',
  error: null,
  ...extra,
});

export const partnerEdit = queued(1, 'Edit partner Eko Grill House');
export const clientEdit = queued(2, 'Edit client Ngozi Eze');
export const refusedEdit = queued(3, 'Edit partner Mama Put Kitchen', {
  status: 'failed',
  error: 'Address is required.',
});

/** What IndexedDB holds when the outbox reads it. */
export const stored = {
  two: [partnerEdit, clientEdit],
  one: [clientEdit],
  none: [] as QueuedEntry[],
  refused: [refusedEdit],
};

export const outboxNetworkError = { status: 0, message: 'Network Error', errors: [] };
export const outboxServerError = { status: 503, message: 'Service Unavailable', errors: [] };
export const outboxConflictError = {
  status: 409,
  message: concurrencyMessages.recordChanged,
  errors: [],
  current: { id: 3, address: '7 Broad Street', updatedAt: '2026-03-02T10:00:00.000Z' },
};
export const outboxValidationError = {
  status: 400,
  message: 'Validation failed',
  errors: [{ fieldName: 'address', message: 'Address is required' }],
};
export const dbError = new Error('IndexedDB is unavailable');
/** The 409 dialog's outcomes (the `conflict` machine invoked as `choice`, its own paths in conflict-model.ts). */
export const keptChoice: ConflictOutput = {
  choice: 'kept',
  theirs: outboxConflictError.current,
  error: null,
};
export const droppedChoice: ConflictOutput = {
  choice: 'dropped',
  theirs: outboxConflictError.current,
  error: null,
};

const done = (id: string, output?: unknown) => ({ type: `xstate.done.actor.${id}`, output });
const fail = (id: string, error: unknown) => ({ type: `xstate.error.actor.${id}`, error });

const counts = (c: OutboxContext) => ({
  pending: c.entries.filter((e) => e.status !== 'failed').length,
  failed: c.entries.filter((e) => e.status === 'failed').length,
});

const entriesWords = (entries: unknown) => {
  const list = entries as QueuedEntry[];
  if (list.length === 0) return 'nothing';
  return list.map((e) => `"${e.label}"${e.status === 'failed' ? ' (failed)' : ''}`).join(', ');
};

export const outboxModel: FlowModel<typeof outboxMachine> = {
  name: 'outbox',
  title: 'Outbox: changes saved on this device, sent when the network returns',
  machine: outboxMachine,
  starts: [
    { label: 'Signed in, online', input: { userId: 1, online: true } },
    { label: 'Signed in, offline', input: { userId: 1, online: false } },
  ],
  events: () =>
    [
      done('loadEntries', stored.two),
      done('loadEntries', stored.one),
      done('loadEntries', stored.none),
      done('loadEntries', stored.refused),
      fail('loadEntries', dbError),
      done('sendEntry', { message: 'Record updated successfully' }),
      fail('sendEntry', outboxNetworkError),
      fail('sendEntry', outboxServerError),
      fail('sendEntry', outboxConflictError),
      fail('sendEntry', outboxValidationError),
      done('retryTimer'),
      done('linkBack'),
      done('markEntry'),
      fail('markEntry', dbError),
      done('discardEntry'),
      fail('discardEntry', dbError),
      done('choice', keptChoice),
      done('choice', droppedChoice),
      { type: 'outbox.changed' },
      { type: 'outbox.retry', id: refusedEdit.id },
      { type: 'outbox.discard', id: partnerEdit.id },
      { type: 'network.offline' },
      { type: 'network.online' },
    ] as EventObject[],
  abstract: (s) => {
    const c = s.context as OutboxContext;
    return { online: c.online, ...counts(c), retrying: c.attempt > 0 };
  },
  eventCase: (e) => {
    const ev = e as EventObject & { output?: unknown; error?: { status?: number } };
    if (e.type === 'xstate.done.actor.loadEntries') return `${e.type} ${entriesWords(ev.output)}`;
    if (e.type === 'xstate.done.actor.choice') return `${e.type} ${(ev.output as ConflictOutput).choice}`;
    return `${e.type}${ev.error ? ` ${ev.error.status ?? 'db'}` : ''}`;
  },
  describeEvent: (e) => {
    const ev = e as EventObject & { output?: unknown; error?: unknown; id?: number };
    switch (e.type) {
      case 'xstate.done.actor.loadEntries':
        return `IndexedDB holds ${entriesWords(ev.output)}`;
      case 'xstate.error.actor.loadEntries':
        return 'reading IndexedDB fails';
      case 'xstate.done.actor.sendEntry':
        return 'the server applies the change';
      case 'xstate.error.actor.sendEntry':
        return ev.error === outboxNetworkError
          ? 'the call fails (Network Error)'
          : ev.error === outboxServerError
            ? 'the server answers 503'
            : ev.error === outboxConflictError
              ? 'the server answers 409: the record changed meanwhile'
              : 'the server refuses it (400, address required)';
      case 'xstate.done.actor.retryTimer':
        return 'the pause before the next try ends';
      case 'xstate.done.actor.linkBack':
        return 'the link is back after an outage (a probe answers again)';
      case 'xstate.done.actor.markEntry':
        return 'the entry is marked';
      case 'xstate.done.actor.discardEntry':
        return 'the entry is removed';
      case 'xstate.done.actor.choice':
        return ev.output === droppedChoice
          ? 'press Use theirs'
          : 'press Keep mine (the entry now names the server version)';
      case 'outbox.changed':
        return 'a change is saved on this device';
      case 'outbox.retry':
        return `press Retry on "${refusedEdit.label}"`;
      case 'outbox.discard':
        return `press Discard on "${partnerEdit.label}"`;
      case 'network.offline':
        return 'the network drops';
      case 'network.online':
        return 'the network returns';
      default:
        if (e.type.startsWith('xstate.error.actor.')) return `${e.type.slice(19)} fails (IndexedDB)`;
        return e.type;
    }
  },
  describeState: (s: AnyMachineSnapshot) => {
    const c = s.context as OutboxContext;
    const { pending, failed } = counts(c);
    const where: Record<string, string> = {
      loading: 'reading the outbox',
      idle: `waiting, ${pending} to send${failed ? `, ${failed} failed` : ''}`,
      sending: `sending "${nextPending(c.entries)?.label ?? ''}"`,
      backoff: `try ${c.attempt} failed, waiting before the next`,
      failing: 'marking the entry failed',
      retrying: 'marking the entry to send again',
      discarding: 'removing the entry',
      conflict: `409 dialog: "${c.conflict?.entry.label ?? ''}" changed on the server`,
    };
    return `${where[String(s.value)] ?? String(s.value)}${c.online ? '' : ', offline'}`;
  },
};
