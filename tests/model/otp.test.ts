import { expect } from 'vitest';
import { rewardMessages } from '../../contract/rewards';
import { type OtpContext, otpMachine } from '../../src/machines/otp.machine';
import { giftcardReward, lockedError, otpModel, THE_CODE, wrongCodeError } from './flow-paths';
import type { FlowHarness } from './flow-runner';
import { modelSuite } from './model-suite';

const harness: FlowHarness = {
  provide: (fakes) =>
    otpMachine.provide({ actors: { checkOtp: fakes.actor('checkOtp'), sendCode: fakes.actor('sendCode') } }),
  check: ({ step, before, after, newCalls }) => {
    const c = after.context as OtpContext;
    const e = step.event as { type: string; error?: unknown };
    if (e.type === 'otp.submit' && !(before.context as OtpContext).online) {
      expect(c.error).toBe(rewardMessages.networkRequired);
      expect(newCalls).toEqual([]);
    }
    if (e.type === 'otp.resend' && !(before.context as OtpContext).online) {
      expect(c.error).toBe(rewardMessages.networkRequired);
      expect(newCalls).toEqual([]);
    }
    if (after.matches('checking') && !before.matches('checking')) {
      expect(newCalls).toEqual([
        { id: 'checkOtp', input: { userId: 7, otp: THE_CODE, code: giftcardReward.code } },
      ]);
    }
    if (e.error === wrongCodeError) {
      expect(c.digits).toEqual(['', '', '', '', '', '']);
      expect(c.error).toBe('Invalid code. 3 attempts left.');
      expect(c.attemptsLeft).toBe(3);
      expect(c.focusIndex).toBe(0);
    }
    // Locked: the server's message is shown (it may name a wait, decision 013).
    if (e.error === lockedError) expect(c.error).toBe(lockedError.message);
    if (after.matches('valid')) expect(after.output).toEqual({ otp: THE_CODE });
    // Submit is possible only when all six boxes hold a digit.
    if (e.type === 'otp.submit' && before.matches('entering') && !after.matches('checking')) {
      const full = (before.context as OtpContext).digits.every((d) => d !== '');
      expect(full && (before.context as OtpContext).online).toBe(false);
    }
  },
};

modelSuite(otpModel, harness);
