import { queryOptions } from '@tanstack/react-query';
import type { RewardRequest } from '../../contract/approvals';
import type {
  initiateRedemptionBodySchema,
  RedemptionCustomer,
  RedemptionResult,
  ReversalResult,
  RewardLedger,
  redeemCouponBodySchema,
  redeemGiftcardBodySchema,
  reverseRedemptionBodySchema,
} from '../../contract/redemption';
import {
  type GiftcardBalance,
  type IssueRewardBody,
  type Reward,
  rewardList,
  rewardSchema,
} from '../../contract/rewards';
import type { RewardStats } from '../../contract/stats';
import type { z } from '../../contract/zod';
import { newIdempotencyKey } from '../lib/idempotency-key';
import { apiCall, apiData } from './call';
import { listResource } from './list-resource';

const rewards = listResource({
  key: ['rewards'],
  list: rewardList,
  path: '/admin/partners/rewards',
  item: rewardSchema,
});

export const rewardKeys = {
  ...rewards.keys,
  /** Every reward list is one partner's (`partnerId` is its filter): the name the screens use for `lists`. */
  partnerLists: rewards.keys.lists,
  ledgers: () => [...rewards.keys.all, 'ledger'] as const,
  ledger: (rewardId: number) => [...rewardKeys.ledgers(), rewardId] as const,
};

export const partnerRewardsQueryOptions = rewards.listQueryOptions;
/** A partner's rewards (search, sort) as CSV. */
export const exportPartnerRewards = rewards.exportCsv;

// ---- Partner-side rewards: issue and OTP-guarded redemption (docs/product.md#calls) --------------------

export { newIdempotencyKey };

/** Partner-side figures: club-wide for admins (or one partner by id), their own partner for staff. */
export const rewardFigureKeys = {
  all: () => [...rewardKeys.all, 'figures'] as const,
  giftcardBalance: (partnerId?: number) =>
    [...rewardFigureKeys.all(), 'giftcard-balance', partnerId ?? null] as const,
  stats: (partnerId?: number) => [...rewardFigureKeys.all(), 'stats', partnerId ?? null] as const,
};

const scopeQuery = (partnerId?: number) => (partnerId === undefined ? {} : { query: { partnerId } });

/** GET /partners/rewards/redeemed-giftcard-balance: naira redeemed from gift cards and still left on them. */
export const giftcardBalanceQueryOptions = (partnerId?: number) =>
  queryOptions({
    queryKey: rewardFigureKeys.giftcardBalance(partnerId),
    queryFn: (): Promise<GiftcardBalance> =>
      apiData('GET /partners/rewards/redeemed-giftcard-balance', scopeQuery(partnerId)),
    staleTime: 10_000,
  });

/** GET /partners/stats/reward: the reward figures in the caller's scope. */
export const partnerRewardStatsQueryOptions = (partnerId?: number) =>
  queryOptions({
    queryKey: rewardFigureKeys.stats(partnerId),
    queryFn: (): Promise<RewardStats> => apiData('GET /partners/stats/reward', scopeQuery(partnerId)),
    staleTime: 10_000,
  });

export const rewardTypeKeys = {
  types: () => [...rewardKeys.all, 'types'] as const,
  categories: () => [...rewardKeys.all, 'categories'] as const,
};

/** GET /partners/reward-types: ['GIFTCARD', 'COUPON']. */
export const rewardTypesQueryOptions = () =>
  queryOptions({
    queryKey: rewardTypeKeys.types(),
    queryFn: () => apiData('GET /partners/reward-types'),
    staleTime: 60 * 60_000,
  });

/** GET /partners/reward-type-categories: ['GENERAL', 'DISCOUNTED_SUBSCRIPTION']. */
export const rewardTypeCategoriesQueryOptions = () =>
  queryOptions({
    queryKey: rewardTypeKeys.categories(),
    queryFn: () => apiData('GET /partners/reward-type-categories'),
    staleTime: 60 * 60_000,
  });

/** POST /partners/rewards/initiate-reward-redemption-auth: mails the customer a 6-digit code. */
export const initiateRedemption = (body: z.output<typeof initiateRedemptionBodySchema>) =>
  apiData('POST /partners/rewards/initiate-reward-redemption-auth', { body });

/** POST /partners/rewards/redemption-auth-otp-validity-check: 400 when wrong, 429 when locked. */
export const checkRedemptionOtp = (body: { userId: number; otp: string; code?: string }) =>
  apiData('POST /partners/rewards/redemption-auth-otp-validity-check', { body });

/** A redemption's answer: the result and the server's message (shown after success). */
export interface RedemptionOutcome {
  result: RedemptionResult;
  message: string;
}

const idempotent = (idempotencyKey: string) => ({ 'Idempotency-Key': idempotencyKey });

/** A money call's answer: the result and the server's message. */
const outcome = <T>({ data, message }: { data: T; message: string }) => ({ result: data, message });

/**
 * POST /partners/rewards/redeem-giftcard. The caller owns the attempt: it passes the same key when
 * it retries the same attempt (the server then answers with the first result), a new one otherwise.
 */
export const redeemGiftcard = (
  body: z.output<typeof redeemGiftcardBodySchema>,
  idempotencyKey: string = newIdempotencyKey(),
): Promise<RedemptionOutcome> =>
  apiCall('POST /partners/rewards/redeem-giftcard', { body, headers: idempotent(idempotencyKey) }).then(
    outcome,
  );

/** POST /partners/rewards/redeem-coupon (single use). */
export const redeemCoupon = (
  body: z.output<typeof redeemCouponBodySchema>,
  idempotencyKey: string = newIdempotencyKey(),
): Promise<RedemptionOutcome> =>
  apiCall('POST /partners/rewards/redeem-coupon', { body, headers: idempotent(idempotencyKey) }).then(
    outcome,
  );

export interface RedeemRewardRequest {
  rewardType: 'GIFTCARD' | 'COUPON';
  userId: number;
  code: string;
  otp: string;
  amountToRedeem?: number;
  idempotencyKey: string;
}

/** The redeem machines' `redeemReward` effect: the gift-card or the coupon call, by type. */
export const redeemReward = ({
  rewardType,
  userId,
  code,
  otp,
  amountToRedeem,
  idempotencyKey,
}: RedeemRewardRequest) =>
  rewardType === 'GIFTCARD'
    ? redeemGiftcard({ userId, code, otp, amountToRedeem: amountToRedeem ?? 0 }, idempotencyKey)
    : redeemCoupon({ userId, code, otp }, idempotencyKey);

/**
 * POST /partners/rewards/issue-reward (status Active): the reward, or, above the club's four-eyes
 * threshold, the request waiting for a second person (202, decision 074).
 */
export const issueReward = (
  body: IssueRewardBody,
  idempotencyKey: string = newIdempotencyKey(),
): Promise<Reward | RewardRequest> =>
  apiData('POST /partners/rewards/issue-reward', { body, headers: idempotent(idempotencyKey) });

/**
 * A customer's rewards at one partner (the guided redemption's pick list): the partner's list
 * filtered by the server to the customer (newest 100), Active first.
 */
export const fetchCustomerRewards = async ({
  partnerId,
  userId,
}: {
  partnerId: number;
  userId: number;
}): Promise<Reward[]> => {
  const list = await apiData('GET /admin/partners/rewards', {
    query: { partnerId, userId, pageNumber: 1, pageSize: 100 },
  });
  return list.records.sort((a, b) => Number(b.status === 'Active') - Number(a.status === 'Active'));
};

/**
 * GET /partners/rewards/customers: the guided redemption's 'find customer', only customers holding
 * a reward at the partner (partner staff: their own), by name, email or reward code; masked address.
 */
export const findRedemptionCustomers = ({
  partnerId,
  search,
}: {
  partnerId: number;
  search: string;
}): Promise<RedemptionCustomer[]> =>
  apiData('GET /partners/rewards/customers', { query: { partnerId, search } });

// ---- A reward's ledger and the reversal of a redemption ------------------------------------------

/** GET /partners/rewards/:rewardId/ledger: the reward now and its entries, oldest first. */
export const rewardLedgerQueryOptions = (rewardId: number) =>
  queryOptions({
    queryKey: rewardKeys.ledger(rewardId),
    queryFn: (): Promise<RewardLedger> =>
      apiData('GET /partners/rewards/{rewardId}/ledger', { params: { rewardId } }),
    staleTime: 5_000,
  });

export interface ReversalOutcome {
  result: ReversalResult;
  message: string;
}

/**
 * POST /partners/rewards/reverse-redemption (rewards.reverse). Like the redeem calls, the caller owns
 * the attempt's key: the same key for a retry of the same reversal, a new one for another.
 */
export const reverseRedemption = (
  body: z.output<typeof reverseRedemptionBodySchema>,
  idempotencyKey: string,
): Promise<ReversalOutcome> =>
  apiCall('POST /partners/rewards/reverse-redemption', { body, headers: idempotent(idempotencyKey) }).then(
    outcome,
  );
