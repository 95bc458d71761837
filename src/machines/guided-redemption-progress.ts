import type { Reward } from '../../contract/rewards';
import type { NetworkEvent } from './flow-support';
import type { RedeemOutcome } from './redeem.machine';

/** The guided redemption's data and its stored progress (what survives a reload; never the code). */

export interface CustomerHit {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
}

export type GuidedStep =
  | 'findCustomer'
  | 'pickReward'
  | 'sendCode'
  | 'enterCode'
  | 'amount'
  | 'confirm'
  | 'receipt';

export interface GuidedContext {
  partnerId: number;
  online: boolean;
  search: string;
  customers: CustomerHit[];
  customer: CustomerHit | null;
  rewards: Reward[];
  reward: Reward | null;
  sentTo: string | null;
  /** The checked code: memory only, never in the stored progress. */
  otp: string | null;
  amountText: string;
  amountError: string | null;
  idempotencyKey: string | null;
  /** The amount the key was made for: the same reward and amount are the same attempt. */
  keyAmount: string | null;
  error: string | null;
  outcome: RedeemOutcome | null;
  /** A redeem call got no answer: the next success says plainly that it went through (issue 17). */
  uncertain?: boolean;
}

export interface GuidedProgress {
  step: GuidedStep;
  context: Omit<GuidedContext, 'otp' | 'online'>;
}

export interface GuidedInput {
  partnerId: number;
  online?: boolean;
}

export type GuidedEvent =
  | { type: 'guided.resume'; progress: GuidedProgress | null }
  | { type: 'guided.search'; text: string }
  | { type: 'guided.pickCustomer'; customer: CustomerHit }
  | { type: 'guided.pickReward'; rewardId: number }
  | { type: 'guided.sendCode' }
  | { type: 'guided.amount'; text: string }
  | { type: 'guided.next' }
  | { type: 'guided.confirm' }
  | { type: 'guided.retry' }
  | { type: 'guided.back' }
  | { type: 'guided.restart' }
  | NetworkEvent;

export const freshGuidedContext = (partnerId: number): Omit<GuidedContext, 'online'> => ({
  partnerId,
  search: '',
  customers: [],
  customer: null,
  rewards: [],
  reward: null,
  sentTo: null,
  otp: null,
  amountText: '',
  amountError: null,
  idempotencyKey: null,
  keyAmount: null,
  error: null,
  outcome: null,
});

const STEP_OF: Record<string, GuidedStep> = {
  findCustomer: 'findCustomer',
  searching: 'findCustomer',
  loadingRewards: 'pickReward',
  pickReward: 'pickReward',
  sendCode: 'sendCode',
  sendingCode: 'sendCode',
  enterCode: 'enterCode',
  amount: 'amount',
  confirm: 'confirm',
  reenterCode: 'confirm',
  redeeming: 'confirm',
  failed: 'confirm',
  receipt: 'receipt',
};

/** What is stored after each transition: the step and the context without the code. */
export function toGuidedProgress(snapshot: {
  value: unknown;
  context: GuidedContext;
}): GuidedProgress | null {
  const step = STEP_OF[String(snapshot.value)];
  if (!step) return null;
  const { otp: _otp, online: _online, ...context } = snapshot.context;
  return { step, context };
}
