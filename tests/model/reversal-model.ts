import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { type ReversalContext, reasonProblem, reversalMachine } from '../../src/machines/reversal.machine';
import type { FlowModel } from './flow-engine';

/**
 * The reversal flow model: which reasons, clicks and server answers are tried in the Reverse dialog,
 * and how a tester reads them. Shared by tests/model/reversal.test.ts, `npm run flows` and the
 * browser walk (tests/flows/walks/reversal.walk.ts).
 */

export const REASON = 'Customer was charged twice';
export const reversedOutcome = {
  result: {
    rewardId: 11,
    code: 'GC-7QK2',
    rewardType: 'GIFTCARD' as const,
    ledgerEntryId: 41,
    reversedEntryId: 31,
    amountReversed: 250,
    balance: 5000,
    status: 'Active' as const,
    reason: REASON,
    reversedAt: '2026-03-01T10:05:00.000Z',
  },
  message: 'Redemption reversed',
};
export const reversalNetworkError = { status: 0, message: 'Network Error', errors: [] };
export const reversalReasonError = {
  status: 400,
  message: 'Validation failed',
  errors: [{ fieldName: 'reason', message: 'The reason must be at least 3 characters' }],
};
export const alreadyReversedError = {
  status: 409,
  message: 'This redemption was already reversed.',
  errors: [],
};

const reasonClass = (reason: string) =>
  reason.trim() === '' ? 'empty' : reasonProblem(reason) ? 'invalid' : 'valid';

export const reversalModel: FlowModel<typeof reversalMachine> = {
  name: 'reversal',
  title: 'Reversal: giving a redemption back, with a reason',
  machine: reversalMachine,
  starts: [
    { label: 'A ₦250 redemption of a gift card, online', input: { ledgerEntryId: 31, online: true } },
    { label: 'A ₦250 redemption of a gift card, offline', input: { ledgerEntryId: 31, online: false } },
  ],
  events: () =>
    [
      { type: 'reversal.reason', text: '' },
      { type: 'reversal.reason', text: 'ab' },
      { type: 'reversal.reason', text: REASON },
      { type: 'reversal.submit' },
      { type: 'reversal.cancel' },
      { type: 'xstate.done.actor.reverseRedemption', output: reversedOutcome },
      { type: 'xstate.error.actor.reverseRedemption', error: reversalReasonError },
      { type: 'xstate.error.actor.reverseRedemption', error: reversalNetworkError },
      { type: 'xstate.error.actor.reverseRedemption', error: alreadyReversedError },
      { type: 'network.offline' },
      { type: 'network.online' },
    ] as EventObject[],
  abstract: (s) => {
    const c = s.context as ReversalContext;
    return { online: c.online, reason: reasonClass(c.reason) };
  },
  eventCase: (e) => {
    const ev = e as EventObject & { text?: string; error?: { status?: number } };
    if (e.type === 'reversal.reason') return `${e.type} ${reasonClass(ev.text ?? '')}`;
    return `${e.type}${ev.error ? ` ${ev.error.status}` : ''}`;
  },
  describeEvent: (e) => {
    const ev = e as EventObject & { text?: string; error?: unknown };
    switch (e.type) {
      case 'reversal.reason':
        return ev.text ? `type the reason "${ev.text}"` : 'clear the reason';
      case 'reversal.submit':
        return 'press Confirm reversal';
      case 'reversal.cancel':
        return 'press Cancel';
      case 'xstate.done.actor.reverseRedemption':
        return 'the server reverses it';
      case 'xstate.error.actor.reverseRedemption':
        return ev.error === reversalNetworkError
          ? 'no answer (Network Error)'
          : ev.error === reversalReasonError
            ? 'the server refuses the reason (400)'
            : 'the server refuses: already reversed (409)';
      case 'network.offline':
        return 'the network drops';
      case 'network.online':
        return 'the network returns';
      default:
        return e.type;
    }
  },
  describeState: (s: AnyMachineSnapshot) => {
    const c = s.context as ReversalContext;
    const where: Record<string, string> = {
      editing: `the dialog, reason "${c.reason}"${c.reasonError ? ` ("${c.reasonError}")` : ''}`,
      reversing: 'reversing',
      done: `reversed ("${c.outcome?.message ?? ''}")`,
      cancelled: 'the dialog closed, nothing sent',
    };
    return `${where[String(s.value)] ?? String(s.value)}${c.online ? '' : ', offline'}${c.error ? ` — "${c.error}"` : ''}`;
  },
};
