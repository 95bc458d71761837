import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { RedemptionResult } from '../../contract/redemption';
import type { Reward } from '../../contract/rewards';
import { formatNaira } from '../../src/lib/format';
import type { GuidedContext, GuidedProgress } from '../../src/machines/guided-redemption.machine';
import { guidedRedemptionMachine } from '../../src/machines/guided-redemption.machine';
import { freshGuidedContext } from '../../src/machines/guided-redemption-progress';
import { issueRewardMachine } from '../../src/machines/issue-reward.machine';
import { type IssueValues, validateIssueValues } from '../../src/machines/issue-reward-form';
import { type OtpContext, otpMachine } from '../../src/machines/otp.machine';
import { type RedeemContext, redeemMachine } from '../../src/machines/redeem.machine';
import { type FlowModel, type FlowPath, generateFlowPaths } from './flow-engine';

export type { FlowModel, FlowPath } from './flow-engine';
export { describeFlowPaths, plannedCoverage } from './flow-engine';

/**
 * The flow models: which events are tried in each state (bounded: a few cases per event type) and
 * how a tester reads them. Shared by the model tests, `npm run flows` and, later, a Playwright walk
 * of the same paths against the real UI.
 */

// ---- Fixtures: what the fake (or real) server answers in the generated paths ----------------------

export const networkError = { status: 0, message: 'Network Error', errors: [] };
export const refusedError = { status: 400, message: 'Invalid or expired code', errors: [] };
export const wrongCodeError = {
  status: 400,
  message: 'Invalid code. 3 attempts left.',
  errors: [{ fieldName: 'otp', message: 'Invalid code. 3 attempts left.' }],
};
export const lockedError = { status: 429, message: 'Too many attempts. Request a new code.', errors: [] };
export const codeSent = { expiresAt: '2026-03-01T10:05:00.000Z', sentTo: 'a***@mail.ng' };
export const THE_CODE = '123456';

export const giftcardReward = { userId: 7, code: 'GC-7QK2', rewardType: 'GIFTCARD' as const, balance: 5000 };
export const couponReward = { userId: 7, code: 'CP-91XZ', rewardType: 'COUPON' as const, balance: null };

const redemption = (rewardType: 'GIFTCARD' | 'COUPON'): RedemptionResult => ({
  rewardId: 11,
  ledgerEntryId: rewardType === 'GIFTCARD' ? 31 : null,
  code: rewardType === 'GIFTCARD' ? giftcardReward.code : couponReward.code,
  rewardType,
  amountRedeemed: rewardType === 'GIFTCARD' ? 250 : null,
  balance: rewardType === 'GIFTCARD' ? 4750 : null,
  status: rewardType === 'GIFTCARD' ? 'Active' : 'Redeemed',
  redeemedAt: '2026-03-01T10:02:00.000Z',
});
export const redeemedGiftcard = {
  result: redemption('GIFTCARD'),
  message: 'Gift card redeemed successfully',
};
export const redeemedCoupon = { result: redemption('COUPON'), message: 'Coupon redeemed successfully' };

export const issuedReward: Reward = {
  id: 12,
  user: { id: 42, firstName: 'Ngozi', lastName: 'Eze' },
  partner: { id: 3, organizationName: 'Mama Put Kitchen' },
  rewardType: 'GIFTCARD',
  rewardTypeCategory: 'GENERAL',
  code: 'GC-NEW1',
  title: 'Welcome gift',
  description: 'Thank you for dining with us',
  promotionalImage: '/api/v1/files/abc',
  expiryDate: null,
  issuedAmount: 2000,
  percentageDiscount: null,
  balance: 2000,
  status: 'Active',
  issuedTo: 42,
  createdAt: '2026-03-01T10:00:00.000Z',
};
export const issueFieldError = {
  status: 400,
  message: 'Validation failed',
  errors: [{ fieldName: 'promotionalImage', message: 'Image must be PNG, JPEG or WebP' }],
};
/** A 1×1 PNG, base64 without prefix. */
export const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output });
const fail = (id: string, error: unknown) => ({ type: `xstate.error.actor.${id}`, error });
const network = [{ type: 'network.offline' }, { type: 'network.online' }];
const offlineNote = (s: AnyMachineSnapshot) => ((s.context as { online: boolean }).online ? '' : ', offline');
const errorNote = (s: AnyMachineSnapshot) => {
  const error = (s.context as { error?: string | null }).error;
  return error ? ` ("${error}")` : '';
};
const networkWords = (type: string) =>
  type === 'network.offline' ? 'the network drops' : type === 'network.online' ? 'the network returns' : null;

// ---- otp -----------------------------------------------------------------------------------------

const filledCount = (s: AnyMachineSnapshot) =>
  (s.context as OtpContext).digits.filter((d) => /^[0-9]$/.test(d)).length;

export const otpModel: FlowModel<typeof otpMachine> = {
  name: 'otp',
  title: 'One-time code (OTP modal)',
  machine: otpMachine,
  starts: [{ label: 'Enter the code', input: { userId: 7, code: giftcardReward.code, online: true } }],
  events: (s) => {
    const filled = filledCount(s);
    const index = Math.min(filled, 5);
    return [
      { type: 'otp.digit', index, value: String(Math.min(filled + 1, 6)) },
      { type: 'otp.digit', index, value: 'x' },
      { type: 'otp.backspace', index },
      { type: 'otp.paste', text: THE_CODE },
      { type: 'otp.paste', text: '12ab' },
      { type: 'otp.focus', index: 0 },
      { type: 'otp.submit' },
      { type: 'otp.resend' },
      ...network,
      done('checkOtp', { valid: true, attemptsLeft: 4 }),
      fail('checkOtp', wrongCodeError),
      fail('checkOtp', lockedError),
      fail('checkOtp', networkError),
      done('sendCode', codeSent),
      fail('sendCode', networkError),
    ] as EventObject[];
  },
  abstract: (s) => ({
    filled: filledCount(s),
    online: (s.context as OtpContext).online,
    noTriesLeft: (s.context as OtpContext).attemptsLeft === 0,
  }),
  describeEvent: (e) => {
    const ev = e as EventObject & Record<string, unknown>;
    switch (e.type) {
      case 'otp.digit':
        return `type ${ev.value}`;
      case 'otp.backspace':
        return 'press Backspace';
      case 'otp.paste':
        return `paste "${ev.text}"`;
      case 'otp.focus':
        return `click box ${Number(ev.index) + 1}`;
      case 'otp.submit':
        return 'press Submit';
      case 'otp.resend':
        return 'ask for a new code';
      case 'xstate.done.actor.checkOtp':
        return 'the server accepts the code';
      case 'xstate.error.actor.checkOtp':
        return ev.error === wrongCodeError
          ? 'the server says the code is wrong (3 attempts left)'
          : ev.error === lockedError
            ? 'the server locks the code (too many tries)'
            : 'the check fails (Network Error)';
      case 'xstate.done.actor.sendCode':
        return `a new code goes to ${codeSent.sentTo}`;
      case 'xstate.error.actor.sendCode':
        return 'sending the new code fails (Network Error)';
      default:
        return networkWords(e.type) ?? e.type;
    }
  },
  describeState: (s) => {
    const c = s.context as OtpContext;
    const where: Record<string, string> = {
      entering: `${filledCount(s)} of 6 boxes filled${filledCount(s) === 6 ? ', Submit enabled' : ''}`,
      checking: 'checking the code',
      resending: 'sending a new code',
      locked: 'locked, only a new code helps',
      valid: `code ${c.digits.join('')} accepted`,
    };
    return `${where[String(s.value)] ?? String(s.value)}${offlineNote(s)}${errorNote(s)}`;
  },
};

// ---- redeem --------------------------------------------------------------------------------------

const amountClass = (c: RedeemContext): string => {
  if (!c.amountText) return 'empty';
  if (!/^\d+(\.\d{1,2})?$/.test(c.amountText.trim()) || Number(c.amountText) <= 0) return 'invalid';
  if (c.reward.balance !== null && Number(c.amountText) > c.reward.balance) return 'over';
  return 'valid';
};

export const redeemModel: FlowModel<typeof redeemMachine> = {
  name: 'redeem',
  title: 'Redeem a known reward (OTP then Redeem modal)',
  machine: redeemMachine,
  starts: [
    // openAttempt given (null: none), so what one path keeps in localStorage never leaks into another.
    {
      label: `Gift card with ${formatNaira(5000)} left`,
      input: { reward: giftcardReward, online: true, openAttempt: null },
    },
    { label: 'Coupon', input: { reward: couponReward, online: true, openAttempt: null } },
    {
      label: 'Gift card whose last redemption got no answer',
      input: {
        reward: giftcardReward,
        online: true,
        openAttempt: {
          rewardType: 'GIFTCARD',
          userId: giftcardReward.userId,
          code: giftcardReward.code,
          otp: THE_CODE,
          amountToRedeem: 250,
          idempotencyKey: '00000000-0000-4000-8000-000000000250',
        },
      },
    },
  ],
  events: (s) => {
    const c = s.context as RedeemContext;
    const giftcard = c.reward.rewardType === 'GIFTCARD';
    return [
      { type: 'redeem.start' },
      { type: 'redeem.amount', text: '250' },
      { type: 'redeem.amount', text: '0' },
      { type: 'redeem.amount', text: '5000.01' },
      { type: 'redeem.submit' },
      { type: 'redeem.confirm' },
      { type: 'redeem.retry' },
      { type: 'redeem.back' },
      { type: 'redeem.cancel' },
      ...network,
      done('sendCode', codeSent),
      fail('sendCode', networkError),
      // The code is typed and checked in the OTP modal (the otp machine); it needs the network.
      ...(c.online ? [done('otp', { otp: THE_CODE })] : []),
      done('redeemReward', giftcard ? redeemedGiftcard : redeemedCoupon),
      fail('redeemReward', networkError),
      fail('redeemReward', refusedError),
    ] as EventObject[];
  },
  abstract: (s) => {
    const c = s.context as RedeemContext;
    return { online: c.online, amount: amountClass(c), open: c.open !== null, uncertain: c.uncertain };
  },
  describeEvent: (e) => {
    const ev = e as EventObject & Record<string, unknown>;
    switch (e.type) {
      case 'redeem.start':
        return 'press Redeem';
      case 'redeem.amount':
        return `type the amount ${ev.text}`;
      case 'redeem.submit':
        return 'press Redeem in the Redeem modal';
      case 'redeem.confirm':
        return 'confirm the coupon';
      case 'redeem.retry':
        return 'press Try again';
      case 'redeem.back':
        return 'press Back';
      case 'redeem.cancel':
        return 'press Cancel';
      case 'xstate.done.actor.sendCode':
        return `the code goes to ${codeSent.sentTo}`;
      case 'xstate.error.actor.sendCode':
        return 'sending the code fails (Network Error)';
      case 'xstate.done.actor.otp':
        return `type ${THE_CODE} in the OTP modal, the server accepts it`;
      case 'xstate.done.actor.redeemReward':
        return 'the server redeems';
      case 'xstate.error.actor.redeemReward':
        return ev.error === refusedError
          ? 'the server refuses it (the code is wrong or was replaced)'
          : 'the redeem call gets no answer (Network Error)';
      default:
        return networkWords(e.type) ?? e.type;
    }
  },
  describeState: (s) => {
    const c = s.context as RedeemContext;
    const where: Record<string, string> = {
      idle: 'not started',
      sendingCode: 'sending the code',
      sendFailed: 'the code was not sent',
      enteringCode: 'OTP modal open',
      enteringAmount: `Redeem modal, amount "${c.amountText}"${c.amountError ? ` ("${c.amountError}")` : ''}`,
      confirming: 'Redeem modal, confirm the coupon',
      redeeming: 'redeeming',
      failed: c.open
        ? 'no answer: the attempt stays open, every next try sends it again with its key'
        : 'redeem refused',
      done: `done ("${c.outcome?.message ?? ''}"), go to /dashboard/rewards`,
      cancelled: 'closed',
    };
    return `${where[String(s.value)] ?? String(s.value)}${offlineNote(s)}${errorNote(s)}`;
  },
};

// ---- issueReward ---------------------------------------------------------------------------------

const filledRequired: Partial<IssueValues> = {
  title: 'Welcome gift',
  description: 'Thank you for dining with us',
  promotionalImage: TINY_PNG,
};
type IssueCtx = { values: IssueValues; online: boolean; error: string | null };

export const issueRewardModel: FlowModel<typeof issueRewardMachine> = {
  name: 'issueReward',
  title: 'Issue a reward (Issue Reward form)',
  machine: issueRewardMachine,
  starts: [
    { label: 'Issue to customer 42', input: { issuedTo: 42, partnerId: 3, online: true } },
    { label: 'No customer chosen', input: { issuedTo: null, partnerId: 3, online: true } },
  ],
  events: () =>
    [
      { type: 'issue.change', values: { rewardType: 'GIFTCARD' } },
      { type: 'issue.change', values: { rewardType: 'COUPON' } },
      { type: 'issue.change', values: filledRequired },
      { type: 'issue.change', values: { issuedAmount: '0' } },
      { type: 'issue.blur', field: 'title' },
      { type: 'issue.submit' },
      ...network,
      done('issueReward', issuedReward),
      fail('issueReward', issueFieldError),
      fail('issueReward', networkError),
    ] as EventObject[],
  abstract: (s) => {
    const c = s.context as IssueCtx;
    return {
      online: c.online,
      type: c.values.rewardType,
      invalid: Object.keys(validateIssueValues(c.values)).sort().join(','),
    };
  },
  eventCase: (e) => {
    const ev = e as EventObject & { values?: object; error?: { status?: number } };
    return `${e.type} ${ev.values ? JSON.stringify(ev.values) : ''} ${ev.error?.status ?? ''}`;
  },
  extraGoals: (step) => {
    const c = step.state.context as IssueCtx;
    const value = String(step.state.value);
    return value === 'success' || value === 'submitting' ? [`${value} ${c.values.rewardType}`] : [];
  },
  describeEvent: (e) => {
    const ev = e as EventObject & { values?: Partial<IssueValues>; field?: string; error?: unknown };
    switch (e.type) {
      case 'issue.change': {
        const v = ev.values ?? {};
        if (v.rewardType) return `choose ${v.rewardType === 'GIFTCARD' ? 'Gift card' : 'Coupon'}`;
        if (v.issuedAmount !== undefined) return `set the amount to ${v.issuedAmount}`;
        return 'fill in title, description and image';
      }
      case 'issue.blur':
        return `leave the ${ev.field} field`;
      case 'issue.submit':
        return 'press Submit';
      case 'xstate.done.actor.issueReward':
        return 'the server issues the reward';
      case 'xstate.error.actor.issueReward':
        return ev.error === issueFieldError
          ? 'the server refuses the image (400)'
          : 'the issue call fails (Network Error)';
      default:
        return networkWords(e.type) ?? e.type;
    }
  },
  describeState: (s) => {
    const c = s.context as IssueCtx;
    const invalid = Object.keys(validateIssueValues(c.values));
    const where: Record<string, string> = {
      editing: invalid.length ? `editing, missing or wrong: ${invalid.join(', ')}` : 'editing, all valid',
      submitting: 'submitting',
      failure: 'failed, the form stays',
      success: '"Reward successfully issued", go to /dashboard/eligibility',
    };
    return `${where[String(s.value)] ?? String(s.value)}${offlineNote(s)}${errorNote(s)}`;
  },
};

// ---- guided redemption ---------------------------------------------------------------------------

export const customer42 = { id: 42, firstName: 'Ngozi', lastName: 'Eze', email: 'ngozi@mail.ng' };
const partnerReward = (id: number, rewardType: 'GIFTCARD' | 'COUPON', status: Reward['status']): Reward => ({
  ...issuedReward,
  id,
  rewardType,
  code: `${rewardType === 'GIFTCARD' ? 'GC' : 'CP'}-${id}`,
  issuedAmount: rewardType === 'GIFTCARD' ? 5000 : null,
  percentageDiscount: rewardType === 'COUPON' ? 10 : null,
  balance: rewardType === 'GIFTCARD' ? 5000 : null,
  status,
});
export const customerRewards = [
  partnerReward(11, 'GIFTCARD', 'Active'),
  partnerReward(12, 'COUPON', 'Active'),
  partnerReward(13, 'COUPON', 'Redeemed'),
];
const stored = (step: GuidedProgress['step'], extra: Partial<GuidedContext> = {}): GuidedProgress => ({
  step,
  context: {
    ...freshGuidedContext(3),
    customer: customer42,
    rewards: customerRewards,
    reward: customerRewards[0] ?? null,
    ...extra,
  },
});
/** Progress as stored before a reload, one per resumable step. */
export const storedProgress = {
  pickReward: stored('pickReward', { reward: null }),
  sendCode: stored('sendCode'),
  enterCode: stored('enterCode'),
  amount: stored('amount', { amountText: '250' }),
  confirm: stored('confirm', { amountText: '250', idempotencyKey: 'stored-key-1', keyAmount: '250' }),
  receipt: stored('receipt', { amountText: '250', outcome: redeemedGiftcard }),
};

type GuidedCtx = GuidedContext;
const guidedAmountClass = (c: GuidedCtx) => {
  if (!c.amountText) return 'empty';
  if (!/^\d+(\.\d{1,2})?$/.test(c.amountText) || Number(c.amountText) <= 0) return 'invalid';
  return c.reward?.balance != null && Number(c.amountText) > c.reward.balance ? 'over' : 'valid';
};

export const guidedRedemptionModel: FlowModel<typeof guidedRedemptionMachine> = {
  name: 'guidedRedemption',
  title: 'Guided redemption for partner staff (/dashboard/redeem)',
  machine: guidedRedemptionMachine,
  starts: [{ label: 'Partner staff', input: { partnerId: 3, online: true } }],
  events: (s) => {
    const c = s.context as GuidedCtx;
    return [
      { type: 'guided.resume', progress: null },
      ...Object.values(storedProgress).map((progress) => ({ type: 'guided.resume', progress })),
      { type: 'guided.search', text: 'ngozi' },
      { type: 'guided.search', text: ' ' },
      { type: 'guided.pickCustomer', customer: customer42 },
      { type: 'guided.pickReward', rewardId: 11 },
      { type: 'guided.pickReward', rewardId: 12 },
      { type: 'guided.pickReward', rewardId: 13 },
      { type: 'guided.sendCode' },
      { type: 'guided.amount', text: '250' },
      { type: 'guided.amount', text: '0' },
      { type: 'guided.amount', text: '9000' },
      { type: 'guided.next' },
      { type: 'guided.confirm' },
      { type: 'guided.retry' },
      { type: 'guided.back' },
      { type: 'guided.restart' },
      ...network,
      done('findCustomers', [customer42]),
      fail('findCustomers', networkError),
      done('loadRewards', customerRewards),
      fail('loadRewards', networkError),
      done('sendCode', codeSent),
      fail('sendCode', networkError),
      ...(c.online ? [done('otp', { otp: THE_CODE })] : []),
      done('redeemReward', c.reward?.rewardType === 'COUPON' ? redeemedCoupon : redeemedGiftcard),
      fail('redeemReward', networkError),
    ] as EventObject[];
  },
  abstract: (s) => {
    const c = s.context as GuidedCtx;
    return {
      online: c.online,
      reward: c.reward?.rewardType ?? null,
      rewards: c.rewards.length > 0,
      amount: guidedAmountClass(c),
    };
  },
  eventCase: (e) => {
    const ev = e as EventObject & { progress?: GuidedProgress | null; error?: { status?: number } };
    if (e.type === 'guided.resume') return `resume ${ev.progress?.step ?? 'none'}`;
    const {
      type,
      output: _o,
      error,
      ...rest
    } = e as EventObject & { output?: unknown; error?: { status?: number } };
    return `${type} ${JSON.stringify(rest)} ${error?.status ?? ''}`;
  },
  extraGoals: (step) => {
    const c = step.state.context as GuidedCtx;
    return String(step.state.value) === 'receipt' ? [`receipt ${c.reward?.rewardType}`] : [];
  },
  describeEvent: (e) => {
    const ev = e as EventObject & Record<string, unknown>;
    switch (e.type) {
      case 'guided.resume': {
        const progress = ev.progress as GuidedProgress | null;
        return progress ? `reload the page at the ${progress.step} step` : 'open the page (nothing stored)';
      }
      case 'guided.search':
        return `search customers for "${ev.text}"`;
      case 'guided.pickCustomer':
        return 'pick Ngozi Eze';
      case 'guided.pickReward':
        return `pick reward ${ev.rewardId === 11 ? 'GC-11 (gift card)' : ev.rewardId === 12 ? 'CP-12 (coupon)' : 'CP-13 (already redeemed)'}`;
      case 'guided.sendCode':
        return 'press Send code';
      case 'guided.amount':
        return `type the amount ${ev.text}`;
      case 'guided.next':
        return 'press Next';
      case 'guided.confirm':
        return 'press Confirm';
      case 'guided.retry':
        return 'press Try again';
      case 'guided.back':
        return 'press Back';
      case 'guided.restart':
        return 'press Start over';
      case 'xstate.done.actor.findCustomers':
        return 'the search finds Ngozi Eze';
      case 'xstate.done.actor.loadRewards':
        return "the customer's 3 rewards load";
      case 'xstate.done.actor.sendCode':
        return `the code goes to ${codeSent.sentTo}`;
      case 'xstate.done.actor.otp':
        return `type ${THE_CODE} in the code boxes, the server accepts it`;
      case 'xstate.done.actor.redeemReward':
        return 'the server redeems';
      default:
        if (e.type.startsWith('xstate.error.actor.')) return `${e.type.slice(19)} fails (Network Error)`;
        return networkWords(e.type) ?? e.type;
    }
  },
  describeState: (s) => {
    const c = s.context as GuidedCtx;
    const where: Record<string, string> = {
      restoring: 'reading the stored progress',
      findCustomer: `find customer${c.customers.length ? ` (${c.customers.length} found)` : ''}`,
      searching: 'searching',
      loadingRewards: 'loading rewards',
      pickReward: `pick a reward (${c.rewards.length} listed)`,
      sendCode: `send the code for ${c.reward?.code ?? ''}`,
      sendingCode: 'sending the code',
      enterCode: 'enter the code',
      reenterCode: 'enter the code again (not kept across the reload), then redeem',
      amount: `amount "${c.amountText}"${c.amountError ? ` ("${c.amountError}")` : ''}`,
      confirm: `confirm ${c.reward?.code ?? ''}${c.amountText ? ` for ${c.amountText}` : ''}`,
      redeeming: 'redeeming',
      failed: 'failed, Try again keeps the same request key',
      receipt: `receipt ("${c.outcome?.message ?? ''}")`,
    };
    return `${where[String(s.value)] ?? String(s.value)}${offlineNote(s)}${errorNote(s)}`;
  },
};

export const flowModels = [otpModel, redeemModel, issueRewardModel, guidedRedemptionModel] as FlowModel[];

/** Every model with its generated paths (computed once per process). */
const cache = new Map<string, FlowPath[]>();
export function flowPathsOf(model: FlowModel): FlowPath[] {
  let paths = cache.get(model.name);
  if (!paths) {
    paths = generateFlowPaths(model);
    cache.set(model.name, paths);
  }
  return paths;
}
