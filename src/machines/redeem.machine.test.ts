import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { rewardMessages } from '../../contract/rewards';
import { otpMachine } from './otp.machine';
import {
  OUTCOME_UNKNOWN,
  overBalanceMessage,
  type RedeemRequest,
  redeemMachine,
  WENT_THROUGH,
} from './redeem.machine';

const result = {
  rewardId: 1,
  ledgerEntryId: 2,
  code: 'GC-1',
  rewardType: 'GIFTCARD' as const,
  amountRedeemed: 250,
  balance: 4750,
  status: 'Active' as const,
  redeemedAt: 'now',
};

type Redeem = (req: RedeemRequest) => Promise<{ result: typeof result; message: string }>;

/** A stand-in for the server: charges once per Idempotency-Key; can lose a request or its reply. */
function fakeServer() {
  const answers = new Map<string, { result: typeof result; message: string }>();
  const losses: ('request' | 'reply')[] = [];
  const state = { charges: 0, balance: 5000, codesSent: 0, otp: '123456', calls: [] as RedeemRequest[] };
  const redeem: Redeem = async (req) => {
    state.calls.push(req);
    const loss = losses.shift();
    if (loss === 'request') throw { status: 0, message: 'Network Error' };
    let answer = answers.get(req.idempotencyKey);
    if (!answer) {
      if (req.otp !== state.otp) throw { status: 400, message: 'Invalid or expired code' };
      state.charges += 1;
      state.balance -= req.amountToRedeem ?? 0;
      answer = {
        result: { ...result, amountRedeemed: req.amountToRedeem ?? 0, balance: state.balance },
        message: 'Gift card redeemed',
      };
      answers.set(req.idempotencyKey, answer);
    }
    if (loss === 'reply') throw { status: 0, message: 'Network Error' };
    return answer;
  };
  return {
    redeem,
    lose: (...kinds: ('request' | 'reply')[]) => losses.push(...kinds),
    replaceCode: (otp: string) => {
      state.otp = otp;
    },
    get charges() {
      return state.charges;
    },
    get balance() {
      return state.balance;
    },
    get calls() {
      return state.calls;
    },
    get codesSent() {
      return state.codesSent;
    },
    sent: () => {
      state.codesSent += 1;
    },
  };
}

let onCodeSent = () => {};

function machineFor(redeem: Redeem) {
  return createActor(
    redeemMachine.provide({
      actors: {
        sendCode: fromPromise(async () => {
          onCodeSent();
          return { expiresAt: 'x', sentTo: 'a***@mail.ng' };
        }),
        redeemReward: fromPromise(({ input }) => redeem(input)),
        otp: otpMachine.provide({
          actors: { checkOtp: fromPromise(async () => ({ valid: true as const, attemptsLeft: 4 })) },
        }),
      },
    }),
    { input: { reward: { userId: 7, code: 'GC-1', rewardType: 'GIFTCARD', balance: 5000 }, online: true } },
  ).start();
}

async function atAmount(redeem: Redeem, server?: { sent: () => void }) {
  onCodeSent = server?.sent ?? (() => {});
  const actor = machineFor(redeem);
  actor.send({ type: 'redeem.start' });
  const entering = await waitFor(actor, (s) => s.matches('enteringCode'));
  entering.children.otp?.send({ type: 'otp.paste', text: '123456' });
  entering.children.otp?.send({ type: 'otp.submit' });
  await waitFor(actor, (s) => s.matches('enteringAmount'));
  return actor;
}

describe('redeem machine', () => {
  it('validates the amount: the redeemAmountInput rule, then the balance', async () => {
    const actor = await atAmount(async () => ({ result, message: 'ok' }));
    for (const text of ['', '0', '-1', '1.005', '1e3', 'abc']) {
      actor.send({ type: 'redeem.amount', text });
      actor.send({ type: 'redeem.submit' });
      expect(actor.getSnapshot().context.amountError).toBe(rewardMessages.invalidAmount);
    }
    actor.send({ type: 'redeem.amount', text: '5000.01' });
    actor.send({ type: 'redeem.submit' });
    expect(actor.getSnapshot().context.amountError).toBe(overBalanceMessage(5000));
    expect(actor.getSnapshot().matches('enteringAmount')).toBe(true);
  });

  it('a retry reuses the idempotency key of the attempt whose answer was lost', async () => {
    const server = fakeServer();
    server.lose('reply', 'reply');
    const actor = await atAmount(server.redeem);
    actor.send({ type: 'redeem.amount', text: '250' });
    actor.send({ type: 'redeem.submit' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe(OUTCOME_UNKNOWN);
    actor.send({ type: 'redeem.retry' });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'redeem.retry' });
    const done = await waitFor(actor, (s) => s.status === 'done');
    const keys = server.calls.map((req) => req.idempotencyKey);
    expect(new Set(keys).size).toBe(1);
    expect(server.calls[0]).toMatchObject({ amountToRedeem: 250, otp: '123456', code: 'GC-1' });
    expect(server.charges).toBe(1);
    expect(done.output?.message).toBe(WENT_THROUGH);
  });

  // Issue 17, defect 5: Back then Confirm after a lost reply made a new attempt with a new key: a
  // second charge (5,000 → 3,600 for one redemption of 700).
  it('defect 5: after a lost reply, Back then Confirm (even with another amount) settles the same attempt: charged once, "it went through"', async () => {
    const server = fakeServer();
    server.lose('reply');
    const actor = await atAmount(server.redeem);
    actor.send({ type: 'redeem.amount', text: '700' });
    actor.send({ type: 'redeem.submit' });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'redeem.back' });
    actor.send({ type: 'redeem.amount', text: '500' });
    actor.send({ type: 'redeem.submit' });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(server.charges).toBe(1);
    expect(server.balance).toBe(4300);
    expect(server.calls.map((c) => c.amountToRedeem)).toEqual([700, 700]);
    expect(done.output?.message).toBe(WENT_THROUGH);
    expect(done.output?.result.amountRedeemed).toBe(700);
    expect(localStorage.getItem('money-attempts')).toBeNull();
  });

  it('defect 5: after a lost reply, closing and redeeming the same reward again (a reload, a new code) settles the open attempt first', async () => {
    const server = fakeServer();
    server.lose('reply');
    const first = await atAmount(server.redeem, server);
    first.send({ type: 'redeem.amount', text: '700' });
    first.send({ type: 'redeem.submit' });
    await waitFor(first, (s) => s.matches('failed'));
    first.send({ type: 'redeem.cancel' });
    // A new dialog (or the page reloaded) for the same reward.
    const second = machineFor(server.redeem);
    second.send({ type: 'redeem.start' });
    const done = await waitFor(second, (s) => s.status === 'done');
    expect(server.charges).toBe(1);
    expect(server.codesSent).toBe(1);
    expect(done.output?.message).toBe(WENT_THROUGH);
  });

  it('an open attempt that never reached the server and is refused now (its code was replaced) settles as not charged; the flow goes on', async () => {
    const server = fakeServer();
    server.lose('request');
    const first = await atAmount(server.redeem);
    first.send({ type: 'redeem.amount', text: '700' });
    first.send({ type: 'redeem.submit' });
    await waitFor(first, (s) => s.matches('failed'));
    first.send({ type: 'redeem.cancel' });
    server.replaceCode('654321');
    const second = machineFor(server.redeem);
    second.send({ type: 'redeem.start' });
    await waitFor(second, (s) => s.matches('enteringCode'));
    expect(server.charges).toBe(0);
    expect(localStorage.getItem('money-attempts')).toBeNull();
  });

  it('offline, a money step is refused and nothing is sent', async () => {
    const redeem = vi.fn(async () => ({ result, message: 'ok' }));
    const actor = await atAmount(redeem);
    actor.send({ type: 'network.offline' });
    actor.send({ type: 'redeem.amount', text: '250' });
    actor.send({ type: 'redeem.submit' });
    expect(actor.getSnapshot().context.error).toBe(rewardMessages.networkRequired);
    expect(actor.getSnapshot().matches('enteringAmount')).toBe(true);
    expect(redeem).not.toHaveBeenCalled();
  });
});
