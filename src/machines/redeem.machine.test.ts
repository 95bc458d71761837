import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { rewardMessages } from '../../contract/rewards';
import { otpMachine } from './otp.machine';
import { overBalanceMessage, type RedeemRequest, redeemMachine } from './redeem.machine';

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

async function atAmount(redeem: (req: RedeemRequest) => Promise<{ result: typeof result; message: string }>) {
  const actor = createActor(
    redeemMachine.provide({
      actors: {
        sendCode: fromPromise(async () => ({ expiresAt: 'x', sentTo: 'a***@mail.ng' })),
        redeemReward: fromPromise(({ input }) => redeem(input)),
        otp: otpMachine.provide({
          actors: { checkOtp: fromPromise(async () => ({ valid: true as const, attemptsLeft: 4 })) },
        }),
      },
    }),
    { input: { reward: { userId: 7, code: 'GC-1', rewardType: 'GIFTCARD', balance: 5000 }, online: true } },
  ).start();
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

  it('a retry reuses the idempotency key of the failed attempt; a new attempt gets a new key', async () => {
    const redeem = vi
      .fn<(req: RedeemRequest) => Promise<{ result: typeof result; message: string }>>()
      .mockRejectedValueOnce({ status: 0, message: 'Network Error' })
      .mockRejectedValueOnce({ status: 0, message: 'Network Error' })
      .mockResolvedValue({ result, message: 'Gift card redeemed' });
    const actor = await atAmount(redeem);
    actor.send({ type: 'redeem.amount', text: '250' });
    actor.send({ type: 'redeem.submit' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('Network Error');
    actor.send({ type: 'redeem.retry' });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'redeem.back' });
    actor.send({ type: 'redeem.submit' });
    const done = await waitFor(actor, (s) => s.status === 'done');
    const keys = redeem.mock.calls.map(([req]) => req.idempotencyKey);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(redeem.mock.calls[0]?.[0]).toMatchObject({ amountToRedeem: 250, otp: '123456', code: 'GC-1' });
    expect(done.output).toEqual({ result, message: 'Gift card redeemed' });
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
