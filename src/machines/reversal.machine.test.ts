import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { reversalMessages } from '../../contract/redemption';
import { rewardMessages } from '../../contract/rewards';
import { TEXTS } from '../lib/texts';
import { type ReversalOutcome, type ReversalRequest, reversalMachine } from './reversal.machine';

const outcome: ReversalOutcome = {
  result: {
    rewardId: 1,
    code: 'GC-1',
    rewardType: 'GIFTCARD',
    ledgerEntryId: 9,
    reversedEntryId: 5,
    amountReversed: 1200,
    balance: 5000,
    status: 'Active',
    reason: 'Charged twice',
    reversedAt: '2026-03-01T10:00:00.000Z',
  },
  message: 'Redemption reversed',
};

/** A server that loses the first `lost` requests, then reverses once per key. */
function start(lost = 0, online = true) {
  const calls: ReversalRequest[] = [];
  const actor = createActor(
    reversalMachine.provide({
      actors: {
        reverseRedemption: fromPromise(async ({ input }: { input: ReversalRequest }) => {
          calls.push(input);
          if (calls.length <= lost) throw { status: 0, message: 'Network Error' };
          return outcome;
        }),
      },
    }),
    { input: { ledgerEntryId: 5, online } },
  ).start();
  return { actor, calls };
}

describe('reversal machine', () => {
  it('refuses an empty or short reason with the contract message, sending nothing', () => {
    const { actor, calls } = start();
    actor.send({ type: 'reversal.submit' });
    expect(actor.getSnapshot().context.reasonError).toBe(reversalMessages.reasonRequired);
    actor.send({ type: 'reversal.reason', text: 'ab' });
    expect(actor.getSnapshot().context.reasonError).toBeNull();
    actor.send({ type: 'reversal.submit' });
    expect(actor.getSnapshot().context.reasonError).toBe(reversalMessages.reasonTooShort);
    expect(actor.getSnapshot().value).toBe('editing');
    expect(calls).toEqual([]);
  });

  it('offline: says the network is needed and sends nothing; back online it is sent', async () => {
    const { actor, calls } = start(0, false);
    actor.send({ type: 'reversal.reason', text: '  Charged twice ' });
    actor.send({ type: 'reversal.submit' });
    expect(actor.getSnapshot().context.error).toBe(rewardMessages.networkRequired);
    expect(calls).toEqual([]);
    actor.send({ type: 'network.online' });
    actor.send({ type: 'reversal.submit' });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(done.output).toEqual(outcome);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ ledgerEntryId: 5, reason: 'Charged twice' });
  });

  it('a retry after no answer sends the same key; a changed reason is a new attempt with a new key', async () => {
    const { actor, calls } = start(2);
    actor.send({ type: 'reversal.reason', text: 'Charged twice' });
    actor.send({ type: 'reversal.submit' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(TEXTS.reversal.noAnswer);
    actor.send({ type: 'reversal.submit' });
    await waitFor(actor, (s) => s.matches('editing') && calls.length === 2);
    expect(calls[1]?.idempotencyKey).toBe(calls[0]?.idempotencyKey);
    actor.send({ type: 'reversal.reason', text: 'Charged twice by mistake' });
    actor.send({ type: 'reversal.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls[2]?.idempotencyKey).not.toBe(calls[0]?.idempotencyKey);
    expect(calls[2]?.reason).toBe('Charged twice by mistake');
  });

  it("the server's refusal of the reason goes under the reason; a new reason sent clears every message", async () => {
    const calls: ReversalRequest[] = [];
    const actor = createActor(
      reversalMachine.provide({
        actors: {
          reverseRedemption: fromPromise(async ({ input }: { input: ReversalRequest }) => {
            calls.push(input);
            if (calls.length === 1)
              throw {
                status: 400,
                message: 'Validation failed',
                errors: [{ fieldName: 'reason', message: 'The reason names no charge' }],
              };
            if (calls.length === 2) throw { status: 409, message: 'This redemption was already reversed.' };
            return outcome;
          }),
        },
      }),
      { input: { ledgerEntryId: 5, online: true } },
    ).start();
    actor.send({ type: 'reversal.reason', text: 'Oops' });
    actor.send({ type: 'reversal.submit' });
    const refused = await waitFor(actor, (s) => s.matches('editing') && calls.length === 1);
    expect(refused.context.reasonError).toBe('The reason names no charge');
    expect(refused.context.error).toBeNull();
    // Any other refusal: the server's message for the dialog, nothing under the reason.
    actor.send({ type: 'reversal.submit' });
    expect(actor.getSnapshot().context.reasonError).toBeNull();
    const conflict = await waitFor(actor, (s) => s.matches('editing') && calls.length === 2);
    expect(conflict.context.error).toBe('This redemption was already reversed.');
    expect(conflict.context.reasonError).toBeNull();
    actor.send({ type: 'reversal.submit' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.map((c) => c.ledgerEntryId)).toEqual([5, 5, 5]);
  });

  it('a reason refused before sending clears the network message; spaces around a reason are the same attempt', async () => {
    const { actor, calls } = start(1, false);
    actor.send({ type: 'reversal.reason', text: 'Charged twice' });
    actor.send({ type: 'reversal.submit' });
    expect(actor.getSnapshot().context.error).toBe(rewardMessages.networkRequired);
    actor.send({ type: 'reversal.reason', text: '  ' });
    actor.send({ type: 'reversal.submit' });
    expect(actor.getSnapshot().context.reasonError).toBe(reversalMessages.reasonRequired);
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'network.online' });
    actor.send({ type: 'reversal.reason', text: 'Charged twice' });
    actor.send({ type: 'reversal.submit' });
    await waitFor(actor, (s) => s.matches('editing') && calls.length === 1);
    actor.send({ type: 'reversal.reason', text: '  Charged twice  ' });
    actor.send({ type: 'network.offline' });
    actor.send({ type: 'reversal.submit' });
    expect(calls).toHaveLength(1);
    actor.send({ type: 'network.online' });
    actor.send({ type: 'reversal.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls[1]).toEqual({
      ledgerEntryId: 5,
      reason: 'Charged twice',
      idempotencyKey: calls[0]?.idempotencyKey,
    });
  });

  it("the server's words about another field are the dialog's error, not the reason's", async () => {
    const actor = createActor(
      reversalMachine.provide({
        actors: {
          reverseRedemption: fromPromise(async (): Promise<ReversalOutcome> => {
            throw {
              status: 400,
              message: 'Validation failed',
              errors: [{ fieldName: 'ledgerEntryId', message: 'Only a redemption can be reversed' }],
            };
          }),
        },
      }),
      { input: { ledgerEntryId: 5, online: true } },
    ).start();
    actor.send({ type: 'reversal.reason', text: 'Charged twice' });
    actor.send({ type: 'reversal.submit' });
    const refused = await waitFor(actor, (s) => s.matches('editing') && s.context.error !== null);
    expect(refused.context.error).toBe('Only a redemption can be reversed.');
    expect(refused.context.reasonError).toBeNull();
  });

  it('cancel ends the flow with nothing sent and no outcome', () => {
    const { actor, calls } = start();
    actor.send({ type: 'reversal.cancel' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toBeNull();
    expect(calls).toEqual([]);
  });
});
