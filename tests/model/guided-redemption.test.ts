import { expect } from 'vitest';
import { rewardMessages } from '../../contract/rewards';
import {
  type GuidedContext,
  guidedRedemptionMachine,
  toGuidedProgress,
} from '../../src/machines/guided-redemption.machine';
import { otpMachine } from '../../src/machines/otp.machine';
import { guidedRedemptionModel, THE_CODE } from './flow-paths';
import { type FlowHarness, settleEffects } from './flow-runner';
import { modelSuite } from './model-suite';

const harness: FlowHarness = {
  provide: (fakes) =>
    guidedRedemptionMachine.provide({
      actors: {
        findCustomers: fakes.actor('findCustomers'),
        loadRewards: fakes.actor('loadRewards'),
        sendCode: fakes.actor('sendCode'),
        redeemReward: fakes.actor('redeemReward'),
        otp: otpMachine.provide({
          actors: { checkOtp: fakes.actor('checkOtp'), sendCode: fakes.actor('sendCode') },
        }),
      },
    }),
  perform: async (event, actor, fakes) => {
    if (event.type !== 'xstate.done.actor.otp') return false;
    const otp = actor.getSnapshot().children.otp;
    if (!otp) throw new Error('The code boxes (otp actor) are not open');
    otp.send({ type: 'otp.paste', text: THE_CODE });
    otp.send({ type: 'otp.submit' });
    await settleEffects();
    fakes.settle('checkOtp', { output: { valid: true, attemptsLeft: 4 } });
    return true;
  },
  check: ({ step, before, after, newCalls }) => {
    const b = before.context as GuidedContext;
    const c = after.context as GuidedContext;
    // What is stored after every transition never holds the one-time code.
    const progress = toGuidedProgress(after as never);
    expect(JSON.stringify(progress ?? {})).not.toContain(THE_CODE);
    if (!after.matches('restoring')) expect(progress).not.toBeNull();
    const { type } = step.event;
    if (['guided.sendCode', 'guided.confirm', 'guided.retry'].includes(type) && !b.online) {
      expect(c.error).toBe(rewardMessages.networkRequired);
      expect(newCalls).toEqual([]);
    }
    const redeem = newCalls.find((call) => call.id === 'redeemReward');
    if (redeem) {
      expect(redeem.input).toMatchObject({ otp: THE_CODE, userId: 42, idempotencyKey: b.idempotencyKey });
      if (b.reward?.rewardType === 'GIFTCARD') expect(redeem.input).toMatchObject({ amountToRedeem: 250 });
    }
    // The same reward and amount keep their key (also across a reload); a changed amount gets a new one.
    if (after.matches('confirm') && !before.matches('confirm') && !before.matches('failed')) {
      if (b.idempotencyKey && b.keyAmount === b.amountText) expect(c.idempotencyKey).toBe(b.idempotencyKey);
      else expect(c.idempotencyKey).not.toBe(b.idempotencyKey);
      expect(c.idempotencyKey).toBeTruthy();
    }
  },
};

modelSuite(guidedRedemptionModel, harness);
