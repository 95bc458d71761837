import { fromPromise } from 'xstate';
import type { RewardRequest } from '../../../contract/approvals';
import type { IssueRewardBody, Reward } from '../../../contract/rewards';
import {
  checkRedemptionOtp,
  fetchCustomerRewards,
  findRedemptionCustomers,
  initiateRedemption,
  issueReward,
  redeemReward,
} from '../../api/rewards';
import { sendSettlingOpenAttempt } from '../../lib/open-attempts';
import { guidedRedemptionMachine } from '../../machines/guided-redemption.machine';
import { issueAttemptId, issueRewardMachine } from '../../machines/issue-reward.machine';
import { otpMachine } from '../../machines/otp.machine';
import {
  type RedeemOutcome,
  type RedeemRequest,
  redeemAttemptId,
  redeemMachine,
  WENT_THROUGH,
} from '../../machines/redeem.machine';

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

/**
 * The guided flow's redemption (issue 17): an attempt stays open (localStorage, per reward, the same
 * store as the admin Redeem dialog) until answered; an open one is sent again first, and when it is
 * what went through the cashier reads 'Redeemed: it went through'.
 */
export const redeemOnce = async (
  request: RedeemRequest,
  send: (request: RedeemRequest) => Promise<RedeemOutcome> = redeemReward,
): Promise<RedeemOutcome> => {
  const { output, reconciled } = await sendSettlingOpenAttempt(redeemAttemptId(request), request, send);
  return reconciled ? { ...output, message: WENT_THROUGH } : output;
};

/**
 * Issuing a reward (issue 17): the attempt (body and Idempotency-Key) stays open until answered;
 * the next Submit for that customer at that partner sends it first, so a reward whose answer was
 * lost is never issued twice.
 */
export type IssueRequest = { body: IssueRewardBody; idempotencyKey: string };

export const issueOnce = async (
  request: IssueRequest,
  send: (request: IssueRequest) => Promise<Reward | RewardRequest> = (r) =>
    issueReward(r.body, r.idempotencyKey),
): Promise<Reward | RewardRequest> =>
  (await sendSettlingOpenAttempt(issueAttemptId(request.body), request, send)).output;

export const liveIssueRewardMachine = issueRewardMachine.provide({
  actors: { issueReward: fromPromise(({ input }) => issueOnce(input)) },
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
    redeemReward: fromPromise(({ input }) => redeemOnce(input)),
  },
});
