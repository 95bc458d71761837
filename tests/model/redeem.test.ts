import { expect } from 'vitest';
import { rewardMessages } from '../../contract/rewards';
import { otpMachine } from '../../src/machines/otp.machine';
import {
  overBalanceMessage,
  type RedeemContext,
  redeemMachine,
  WENT_THROUGH,
} from '../../src/machines/redeem.machine';
import { redeemModel, THE_CODE } from './flow-paths';
import { type FakeCall, type FlowHarness, settleEffects } from './flow-runner';
import { modelSuite } from './model-suite';

const keyOf = (call: FakeCall) => (call.input as { idempotencyKey: string }).idempotencyKey;

const harness: FlowHarness = {
  provide: (fakes) =>
    redeemMachine.provide({
      actors: {
        sendCode: fakes.actor('sendCode'),
        redeemReward: fakes.actor('redeemReward'),
        otp: otpMachine.provide({
          actors: { checkOtp: fakes.actor('checkOtp'), sendCode: fakes.actor('sendCode') },
        }),
      },
    }),
  // The OTP modal's part: the code is pasted into the invoked otp actor, submitted and accepted.
  perform: async (event, actor, fakes) => {
    if (event.type !== 'xstate.done.actor.otp') return false;
    const otp = actor.getSnapshot().children.otp;
    if (!otp) throw new Error('The OTP modal (otp actor) is not open');
    otp.send({ type: 'otp.paste', text: (event as unknown as { output: { otp: string } }).output.otp });
    otp.send({ type: 'otp.submit' });
    await settleEffects();
    fakes.settle('checkOtp', { output: { valid: true, attemptsLeft: 4 } });
    return true;
  },
  check: ({ step, before, after, fakes, newCalls }) => {
    const b = before.context as RedeemContext;
    const c = after.context as RedeemContext;
    const { type } = step.event;
    const moneyOrSend = ['redeem.start', 'redeem.submit', 'redeem.confirm', 'redeem.retry'];
    if (moneyOrSend.includes(type) && !b.online) {
      expect(c.error).toBe(rewardMessages.networkRequired);
      expect(newCalls).toEqual([]);
    }
    if (type === 'redeem.submit' && b.online && after.matches('enteringAmount')) {
      expect(newCalls).toEqual([]);
      const over = /^\d+(\.\d{1,2})?$/.test(c.amountText) && Number(c.amountText) > 0;
      expect(c.amountError).toBe(over ? overBalanceMessage(5000) : rewardMessages.invalidAmount);
    }
    const redeems = fakes.callsOf('redeemReward');
    const started = newCalls.filter((call) => call.id === 'redeemReward');
    if (started.length) {
      const [call] = started as [FakeCall];
      expect(call.input).toMatchObject({ userId: 7, code: b.reward.code, otp: THE_CODE });
      if (b.reward.rewardType === 'GIFTCARD') expect(call.input).toMatchObject({ amountToRedeem: 250 });
      else expect(call.input).not.toHaveProperty('amountToRedeem');
      const earlier = redeems.slice(0, -1).map(keyOf);
      // While an attempt's outcome is unknown every try sends it again, same request and key
      // (issue 17); only a settled attempt (answered) makes room for a new one with a new key.
      if (b.open) expect(call.input).toEqual(b.open);
      else expect(earlier).not.toContain(keyOf(call));
      expect(keyOf(call)).toMatch(/^[0-9a-f-]{36}$/);
    }
    if (after.matches('done')) expect(after.output).toEqual(c.outcome);
    // An attempt whose answer was lost and then went through is reported plainly.
    if (after.matches('done') && b.uncertain) expect(c.outcome?.message).toBe(WENT_THROUGH);
    if (after.matches('enteringCode') && !before.matches('enteringCode')) {
      expect(after.children.otp).toBeDefined();
    }
  },
};

modelSuite(redeemModel, harness);
