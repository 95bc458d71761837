import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { concurrencyMessages } from '../../contract/concurrency';
import { type ConflictContext, conflictMachine } from '../../src/machines/conflict.machine';
import type { FlowModel } from './flow-engine';

/**
 * The 409 choice model (decision 010): Keep mine, Use theirs, closing the dialog, and how Keep mine's
 * send ends. Shared by tests/model/conflict.test.ts, `npm run flows` and the browser walk
 * (tests/flows/walks/conflict.walk.ts, through an online form's save).
 */

export const myEdit = { partnerId: 3, address: '1 Allen Avenue' };
export const theirRecord = { id: 3, address: '7 Broad Street', updatedAt: '2026-03-02T10:00:00.000Z' };
export const newerRecord = { id: 3, address: '9 Marina', updatedAt: '2026-03-02T11:00:00.000Z' };
export const keptOutcome = {
  kind: 'sent' as const,
  data: { ...theirRecord, ...myEdit },
  message: 'Record updated successfully',
};
/** Changed again between the dialog and Keep mine: the 409 carries the newer record. */
export const changedAgainError = {
  status: 409,
  message: concurrencyMessages.recordChanged,
  errors: [],
  current: newerRecord,
};
export const keepRefusedError = {
  status: 400,
  message: 'Validation failed',
  errors: [{ fieldName: 'address', message: 'Address is required' }],
};

export const conflictModel: FlowModel<typeof conflictMachine> = {
  name: 'conflict',
  title: '409 choice: the record changed on the server (Keep mine, Use theirs)',
  machine: conflictMachine,
  starts: [
    {
      label: "An online form's save met a 409",
      input: { label: 'Edit partner Eko Grill House', mine: myEdit, theirs: theirRecord, closable: true },
    },
    {
      label: "A queued edit met a 409 (the outbox's dialog cannot be closed)",
      input: { label: 'Edit partner Eko Grill House', mine: myEdit, theirs: theirRecord, closable: false },
    },
  ],
  events: () =>
    [
      { type: 'conflict.keepMine' },
      { type: 'conflict.useTheirs' },
      { type: 'conflict.close' },
      { type: 'xstate.done.actor.keepMine', output: keptOutcome },
      { type: 'xstate.error.actor.keepMine', error: changedAgainError },
      { type: 'xstate.error.actor.keepMine', error: keepRefusedError },
    ] as EventObject[],
  abstract: (s) => {
    const c = s.context as ConflictContext;
    return { closable: c.closable, newer: c.theirs === newerRecord };
  },
  eventCase: (e) => {
    const ev = e as EventObject & { error?: { status?: number } };
    return `${e.type}${ev.error ? ` ${ev.error.status}` : ''}`;
  },
  describeEvent: (e) => {
    const ev = e as EventObject & { error?: unknown };
    switch (e.type) {
      case 'conflict.keepMine':
        return 'press Keep mine';
      case 'conflict.useTheirs':
        return 'press Use theirs';
      case 'conflict.close':
        return 'close the dialog';
      case 'xstate.done.actor.keepMine':
        return 'the server applies my edit';
      case 'xstate.error.actor.keepMine':
        return ev.error === changedAgainError
          ? 'changed again meanwhile: the server answers 409 with the newer record'
          : 'the server refuses the edit (400, address required)';
      default:
        return e.type;
    }
  },
  describeState: (s: AnyMachineSnapshot) => {
    const c = s.context as ConflictContext;
    const where: Record<string, string> = {
      choosing: `409 dialog: theirs "${(c.theirs as { address?: string }).address ?? ''}", mine "${myEdit.address}"`,
      keeping: 'keeping mine: sending it against the server version',
      kept: 'my edit applied',
      dropped: 'my edit dropped, the form shows theirs',
      closed: 'the dialog closed, the form kept as it was',
      failed: `refused: "${c.error ?? ''}"`,
    };
    return where[String(s.value)] ?? String(s.value);
  },
};
