import { fromPromise } from 'xstate';
import {
  checkRedemptionOtp,
  fetchCustomerRewards,
  findRedemptionCustomers,
  initiateRedemption,
  issueReward,
  redeemReward,
} from '../../api/rewards';
import { guidedRedemptionMachine } from '../../machines/guided-redemption.machine';
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
    checkOtp: fromPromise(({ input }: { input: { userId: number; otp: string; code: string } }) =>
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

export const liveGuidedRedemptionMachine = guidedRedemptionMachine.provide({
  actors: {
    findCustomers: fromPromise(({ input }: { input: { search: string; partnerId: number } }) =>
      findRedemptionCustomers(input),
    ),
    loadRewards: fromPromise(({ input }: { input: { partnerId: number; userId: number } }) =>
      fetchCustomerRewards(input),
    ),
    sendCode,
    otp: liveOtpMachine,
    redeemReward: fromPromise(({ input }) => redeemReward(input)),
  },
});
