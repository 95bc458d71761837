import { fromPromise } from 'xstate';
import { checkRedemptionOtp, initiateRedemption, issueReward, redeemReward } from '../../api/rewards';
import { issueRewardMachine } from '../../machines/issue-reward.machine';
import { otpMachine } from '../../machines/otp.machine';
import { redeemMachine } from '../../machines/redeem.machine';

/** The flow machines joined to the real calls (src/api/rewards.ts). */

const sendCode = fromPromise(({ input }: { input: { userId: number; code: string } }) =>
  initiateRedemption(input),
);

export const liveOtpMachine = otpMachine.provide({
  actors: {
    sendCode,
    checkOtp: fromPromise(({ input }: { input: { userId: number; otp: string } }) =>
      checkRedemptionOtp(input),
    ),
  },
});

export const liveRedeemMachine = redeemMachine.provide({
  actors: {
    sendCode,
    otp: liveOtpMachine,
    redeemReward: fromPromise(({ input }) => redeemReward(input)),
  },
});

export const liveIssueRewardMachine = issueRewardMachine.provide({
  actors: {
    issueReward: fromPromise(({ input }) => issueReward(input.body, input.idempotencyKey)),
  },
});
