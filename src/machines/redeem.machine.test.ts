import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { rewardMessages } from '../../contract/rewards';
import { type OtpActor, otpMachine } from './otp.machine';
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

/**
 * The steps of a redemption by the product's rules (docs/product.md#redemption and #modals: a code
 * first, then a gift card's amount of at most its balance or a coupon's confirmation; money needs the
 * network; a refusal charges nothing). Added for the mutants StrykerJS found alive
 * (`npm run test:mutation`, decision 071).
 */
describe('redeem machine: the steps', () => {
  const network = { status: 0, message: 'Network Error', errors: [] };
  const refused = { status: 400, message: 'Insufficient balance', errors: [] };
  function flow(opts: {
    type?: 'GIFTCARD' | 'COUPON';
    sends?: unknown[];
    redeems?: unknown[];
    openAttempt?: RedeemRequest | null;
  }) {
    const sends = [...(opts.sends ?? [])];
    const redeems = [...(opts.redeems ?? [])];
    const sendCode = vi.fn(async (_: { userId: number; code: string }) => {
      const a = sends.shift();
      if (a) throw a;
      return { expiresAt: 'x', sentTo: 'n***@mail.ng' };
    });
    const redeemReward = vi.fn(async (req: RedeemRequest) => {
      const a = redeems.shift();
      if (a) throw a;
      return { result: { ...result, rewardType: req.rewardType }, message: `${req.rewardType} redeemed` };
    });
    const type = opts.type ?? 'GIFTCARD';
    const actor = createActor(
      redeemMachine.provide({
        actors: {
          sendCode: fromPromise(({ input }) => sendCode(input)),
          redeemReward: fromPromise(({ input }) => redeemReward(input)),
          otp: otpMachine.provide({
            actors: { checkOtp: fromPromise(async () => ({ valid: true as const, attemptsLeft: 4 })) },
          }),
        },
      }),
      {
        input: {
          reward: { userId: 7, code: 'R-1', rewardType: type, balance: type === 'GIFTCARD' ? 5000 : null },
          online: true,
          openAttempt: opts.openAttempt ?? null,
        },
      },
    ).start();
    return { actor, sendCode, redeemReward };
  }
  const enterCode = async (actor: ReturnType<typeof flow>['actor']) => {
    const s = await waitFor(actor, (x) => x.matches('enteringCode'));
    s.children.otp?.send({ type: 'otp.paste', text: '123456' });
    s.children.otp?.send({ type: 'otp.submit' });
    return waitFor(actor, (x) => x.matches('enteringAmount') || x.matches('confirming'));
  };

  it('the code goes to the reward of this redemption; where it went is shown in the code entry', async () => {
    const { actor, sendCode } = flow({});
    actor.send({ type: 'redeem.start' });
    const s = await waitFor(actor, (x) => x.matches('enteringCode'));
    expect(sendCode).toHaveBeenCalledWith({ userId: 7, code: 'R-1' });
    expect(s.context.sentTo).toBe('n***@mail.ng');
    expect((s.children.otp as OtpActor | undefined)?.getSnapshot().context.sentTo).toBe('n***@mail.ng');
  });

  it('a code that did not go can be sent again, the error cleared as it goes; Cancel closes', async () => {
    const { actor, sendCode } = flow({ sends: [network] });
    actor.send({ type: 'redeem.start' });
    let s = await waitFor(actor, (x) => x.matches('sendFailed'));
    expect(s.context.error).toBe('Network Error');
    actor.send({ type: 'redeem.retry' });
    expect(actor.getSnapshot().context.error).toBeNull();
    s = await waitFor(actor, (x) => x.matches('enteringCode'));
    expect(sendCode).toHaveBeenCalledTimes(2);
    actor.send({ type: 'redeem.cancel' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toBeNull();
  });

  it('Cancel closes from the start, after a failed send, the amount, the confirmation and a failure', async () => {
    const idle = flow({});
    idle.actor.send({ type: 'redeem.cancel' });
    expect(idle.actor.getSnapshot().status).toBe('done');
    const sendFailed = flow({ sends: [network] });
    sendFailed.actor.send({ type: 'redeem.start' });
    await waitFor(sendFailed.actor, (x) => x.matches('sendFailed'));
    sendFailed.actor.send({ type: 'redeem.cancel' });
    expect(sendFailed.actor.getSnapshot().value).toBe('cancelled');
    const coupon = flow({ type: 'COUPON', redeems: [refused] });
    coupon.actor.send({ type: 'redeem.start' });
    await enterCode(coupon.actor);
    coupon.actor.send({ type: 'redeem.confirm' });
    await waitFor(coupon.actor, (x) => x.matches('failed'));
    coupon.actor.send({ type: 'redeem.cancel' });
    expect(coupon.actor.getSnapshot().value).toBe('cancelled');
    expect(coupon.actor.getSnapshot().output).toBeNull();
  });

  it('a gift card may be redeemed for its whole balance, the amount read without spaces; one more kobo is refused', async () => {
    const { actor, redeemReward } = flow({});
    actor.send({ type: 'redeem.start' });
    await enterCode(actor);
    actor.send({ type: 'redeem.amount', text: '5000.01' });
    actor.send({ type: 'redeem.submit' });
    expect(actor.getSnapshot().value).toBe('enteringAmount');
    expect(actor.getSnapshot().context.amountError).toContain('₦5,000');
    actor.send({ type: 'redeem.amount', text: ' 5000 ' });
    actor.send({ type: 'redeem.submit' });
    const done = await waitFor(actor, (x) => x.status === 'done');
    expect(redeemReward).toHaveBeenCalledWith(
      expect.objectContaining({ amountToRedeem: 5000, otp: '123456' }),
    );
    expect(done.value).toBe('done');
    expect(done.output).toMatchObject({ message: 'GIFTCARD redeemed' });
  });

  it('a refusal charges nothing: the server says why, and Back returns to the coupon confirmation, the error cleared', async () => {
    const { actor, redeemReward } = flow({ type: 'COUPON', redeems: [refused] });
    actor.send({ type: 'redeem.start' });
    await enterCode(actor);
    actor.send({ type: 'redeem.confirm' });
    const s = await waitFor(actor, (x) => x.matches('failed'));
    expect(s.context.error).toBe('Insufficient balance');
    expect(s.context.open).toBeNull();
    actor.send({ type: 'redeem.back' });
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(actor.getSnapshot().context.error).toBeNull();
    // Confirmed again: a new attempt (the refused one is settled), answered with the coupon's message.
    actor.send({ type: 'redeem.confirm' });
    const done = await waitFor(actor, (x) => x.status === 'done');
    expect(done.output).toMatchObject({ message: 'COUPON redeemed' });
    expect(redeemReward.mock.calls[1]?.[0].idempotencyKey).not.toBe(
      redeemReward.mock.calls[0]?.[0].idempotencyKey,
    );
  });

  it('offline in the code entry reaches the code boxes: Submit is refused there; online again, it goes', async () => {
    const { actor } = flow({});
    actor.send({ type: 'redeem.start' });
    const s = await waitFor(actor, (x) => x.matches('enteringCode'));
    actor.send({ type: 'network.offline' });
    expect(actor.getSnapshot().context.online).toBe(false);
    const otp = s.children.otp as OtpActor | undefined;
    otp?.send({ type: 'otp.paste', text: '123456' });
    otp?.send({ type: 'otp.submit' });
    expect(otp?.getSnapshot().context.error).toBe(rewardMessages.networkRequired);
    actor.send({ type: 'network.online' });
    expect(actor.getSnapshot().context.online).toBe(true);
    otp?.send({ type: 'otp.submit' });
    await waitFor(actor, (x) => x.matches('enteringAmount'));
  });

  it('back online, the refusal for want of the network is cleared', () => {
    const { actor } = flow({});
    actor.send({ type: 'network.offline' });
    actor.send({ type: 'redeem.start' });
    expect(actor.getSnapshot().context.error).toBe(rewardMessages.networkRequired);
    actor.send({ type: 'network.online' });
    expect(actor.getSnapshot().context).toMatchObject({ online: true, error: null });
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it("an earlier attempt refused at the start charged nothing: the next success is told as the type's own", async () => {
    const open: RedeemRequest = {
      rewardType: 'COUPON',
      userId: 7,
      code: 'R-1',
      otp: '000000',
      idempotencyKey: 'k-old',
    };
    const { actor, redeemReward } = flow({ type: 'COUPON', redeems: [refused], openAttempt: open });
    actor.send({ type: 'redeem.start' });
    await enterCode(actor);
    expect(actor.getSnapshot().context).toMatchObject({ uncertain: false, resuming: false, open: null });
    actor.send({ type: 'redeem.confirm' });
    const done = await waitFor(actor, (x) => x.status === 'done');
    expect(redeemReward.mock.calls[0]?.[0]).toEqual(open);
    expect(done.output).toMatchObject({ message: 'COUPON redeemed' });
  });
});
