import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Reward } from '../../../contract/rewards';
import { readOpenAttempt } from '../../lib/open-attempts';
import {
  GUIDED_OUTCOME_UNKNOWN,
  type GuidedProgress,
  guidedRedemptionMachine,
  toGuidedProgress,
} from '../../machines/guided-redemption.machine';
import { freshGuidedContext } from '../../machines/guided-redemption-progress';
import {
  ISSUE_OUTCOME_UNKNOWN,
  ISSUED_WENT_THROUGH,
  issueAttemptId,
  issueRewardMachine,
} from '../../machines/issue-reward.machine';
import { otpMachine } from '../../machines/otp.machine';
import {
  type RedeemOutcome,
  type RedeemRequest,
  redeemAttemptId,
  WENT_THROUGH,
} from '../../machines/redeem.machine';
import { type IssueRequest, issueOnce, redeemOnce } from './redeem-effects';

/**
 * Issue 17, defect 5 for the guided redemption and for issuing a reward: the live effects
 * (`redeemOnce`, `issueOnce`) against a stand-in server that applies each Idempotency-Key once and
 * can lose a request or its reply. Whatever the cashier does after a lost reply, one charge.
 */

const NETWORK_ERROR = { status: 0, message: 'Network Error', errors: [] };

function fakeRedeemServer() {
  const answers = new Map<string, RedeemOutcome>();
  const losses: ('request' | 'reply')[] = [];
  const s = { charges: 0, balance: 5000, otp: '111111', calls: [] as RedeemRequest[] };
  const redeem = async (req: RedeemRequest): Promise<RedeemOutcome> => {
    s.calls.push(req);
    const loss = losses.shift();
    if (loss === 'request') throw NETWORK_ERROR;
    let answer = answers.get(req.idempotencyKey);
    if (!answer) {
      if (req.otp !== s.otp) throw { status: 400, message: 'Invalid or expired code', errors: [] };
      s.charges += 1;
      s.balance -= req.amountToRedeem ?? 0;
      answer = {
        message: 'Gift card redeemed successfully',
        result: {
          rewardId: 11,
          ledgerEntryId: s.charges,
          code: 'GC-11',
          rewardType: 'GIFTCARD',
          amountRedeemed: req.amountToRedeem ?? 0,
          balance: s.balance,
          status: 'Active',
          redeemedAt: '2026-01-01T00:00:00.000Z',
        },
      };
      answers.set(req.idempotencyKey, answer);
    }
    if (loss === 'reply') throw NETWORK_ERROR;
    return answer;
  };
  return { s, redeem, lose: (...kinds: ('request' | 'reply')[]) => losses.push(...kinds) };
}

const customer = { id: 42, firstName: 'Ngozi', lastName: 'Eze', email: 'n***@mail.ng' };
const giftcard = {
  id: 11,
  code: 'GC-11',
  rewardType: 'GIFTCARD',
  status: 'Active',
  balance: 5000,
  title: 'Weekend treat',
} as unknown as Reward;

function guided(server: ReturnType<typeof fakeRedeemServer>) {
  return createActor(
    guidedRedemptionMachine.provide({
      actors: {
        findCustomers: fromPromise(async () => [customer]),
        loadRewards: fromPromise(async () => [giftcard]),
        sendCode: fromPromise(async () => ({ expiresAt: 'x', sentTo: 'n***@mail.ng' })),
        otp: otpMachine.provide({
          actors: { checkOtp: fromPromise(async () => ({ valid: true as const, attemptsLeft: 4 })) },
        }),
        redeemReward: fromPromise(({ input }: { input: RedeemRequest }) => redeemOnce(input, server.redeem)),
      },
    }),
    { input: { partnerId: 3, online: true } },
  ).start();
}

const atSendCode: GuidedProgress = {
  step: 'sendCode',
  context: { ...freshGuidedContext(3), customer, rewards: [giftcard], reward: giftcard },
};

type Guided = ReturnType<typeof guided>;

/** Send code, type `otp`, the amount, Next: at Confirm. */
async function toConfirm(actor: Guided, otp: string, amount: string) {
  actor.send({ type: 'guided.sendCode' });
  const entering = await waitFor(actor, (s) => s.matches('enterCode'));
  entering.children.otp?.send({ type: 'otp.paste', text: otp });
  entering.children.otp?.send({ type: 'otp.submit' });
  await waitFor(actor, (s) => s.matches('amount'));
  actor.send({ type: 'guided.amount', text: amount });
  actor.send({ type: 'guided.next' });
  expect(actor.getSnapshot().matches('confirm')).toBe(true);
}

async function confirmed(actor: Guided, event: 'guided.confirm' | 'guided.retry' = 'guided.confirm') {
  actor.send({ type: event });
  return waitFor(actor, (s) => s.matches('receipt') || s.matches('failed') || s.matches('reenterCode'));
}

/** A cashier redeems 700 of 5,000 and the reply is lost. */
async function lostReply(server: ReturnType<typeof fakeRedeemServer>) {
  const actor = guided(server);
  actor.send({ type: 'guided.resume', progress: atSendCode });
  await toConfirm(actor, server.s.otp, '700');
  server.lose('reply');
  const failed = await confirmed(actor);
  expect(failed.value).toBe('failed');
  expect(failed.context.error).toBe(GUIDED_OUTCOME_UNKNOWN);
  expect(server.s.charges).toBe(1);
  expect(readOpenAttempt(redeemAttemptId({ userId: 42, code: 'GC-11' }))).not.toBeNull();
  return actor;
}

afterEach(() => localStorage.clear());

describe('guided redemption after a lost reply (issue 17, defect 5)', () => {
  it('Back then Confirm: the same attempt is settled, "Redeemed: it went through", charged once', async () => {
    const server = fakeRedeemServer();
    const actor = await lostReply(server);
    actor.send({ type: 'guided.back' });
    const done = await confirmed(actor);
    expect(done.value).toBe('receipt');
    expect(done.context.outcome?.message).toBe(WENT_THROUGH);
    expect(done.context.outcome?.result.balance).toBe(4300);
    expect(server.s.charges).toBe(1);
    expect(server.s.calls[1]).toEqual(server.s.calls[0]);
    expect(readOpenAttempt(redeemAttemptId({ userId: 42, code: 'GC-11' }))).toBeNull();
  });

  it('Try again: charged once, said plainly', async () => {
    const server = fakeRedeemServer();
    const actor = await lostReply(server);
    const done = await confirmed(actor, 'guided.retry');
    expect(done.context.outcome?.message).toBe(WENT_THROUGH);
    expect(server.s.charges).toBe(1);
  });

  it('Start over, a new code, another amount: the open attempt is what is sent; charged once', async () => {
    const server = fakeRedeemServer();
    const actor = await lostReply(server);
    actor.send({ type: 'guided.restart' });
    actor.send({ type: 'guided.resume', progress: null });
    actor.send({ type: 'guided.search', text: 'ngozi' });
    await waitFor(actor, (s) => s.matches('findCustomer') && s.context.customers.length > 0);
    actor.send({ type: 'guided.pickCustomer', customer });
    await waitFor(actor, (s) => s.matches('pickReward'));
    actor.send({ type: 'guided.pickReward', rewardId: 11 });
    server.s.otp = '222222'; // the new code replaces the old one
    await toConfirm(actor, '222222', '900');
    const done = await confirmed(actor);
    expect(done.value).toBe('receipt');
    expect(done.context.outcome?.message).toBe(WENT_THROUGH);
    expect(done.context.outcome?.result.amountRedeemed).toBe(700);
    expect(server.s.charges).toBe(1);
    expect(server.s.balance).toBe(4300);
  });

  it('a reload at Confirm: Confirm needs no code while the attempt is open; charged once', async () => {
    const server = fakeRedeemServer();
    const first = await lostReply(server);
    const stored = toGuidedProgress(first.getSnapshot());
    first.stop();
    expect(stored?.step).toBe('confirm');
    expect(JSON.stringify(stored)).not.toContain(server.s.otp);
    const reloaded = guided(server);
    reloaded.send({ type: 'guided.resume', progress: stored });
    expect(reloaded.getSnapshot().matches('confirm')).toBe(true);
    const done = await confirmed(reloaded);
    expect(done.value).toBe('receipt');
    expect(done.context.outcome?.message).toBe(WENT_THROUGH);
    expect(server.s.charges).toBe(1);
  });

  it('a request that never arrived is applied on the next try, once', async () => {
    const server = fakeRedeemServer();
    const actor = guided(server);
    actor.send({ type: 'guided.resume', progress: atSendCode });
    await toConfirm(actor, server.s.otp, '700');
    server.lose('request');
    expect((await confirmed(actor)).context.error).toBe(GUIDED_OUTCOME_UNKNOWN);
    expect(server.s.charges).toBe(0);
    actor.send({ type: 'guided.back' });
    const done = await confirmed(actor);
    expect(done.value).toBe('receipt');
    expect(server.s.charges).toBe(1);
    expect(server.s.balance).toBe(4300);
  });

  it('an open attempt the server refuses (its code was replaced, it never arrived): the new one goes, once', async () => {
    const server = fakeRedeemServer();
    const actor = guided(server);
    actor.send({ type: 'guided.resume', progress: atSendCode });
    await toConfirm(actor, server.s.otp, '700');
    server.lose('request');
    await confirmed(actor);
    actor.stop();
    const again = guided(server);
    again.send({ type: 'guided.resume', progress: atSendCode });
    server.s.otp = '333333';
    await toConfirm(again, '333333', '900');
    const done = await confirmed(again);
    expect(done.value).toBe('receipt');
    expect(done.context.outcome?.message).toBe('Gift card redeemed successfully');
    expect(server.s.charges).toBe(1);
    expect(server.s.balance).toBe(4100);
    expect(readOpenAttempt(redeemAttemptId({ userId: 42, code: 'GC-11' }))).toBeNull();
  });

  it('a refusal is not an open attempt: its reason is shown', async () => {
    const server = fakeRedeemServer();
    const actor = guided(server);
    actor.send({ type: 'guided.resume', progress: atSendCode });
    await toConfirm(actor, '999999', '700');
    const failed = await confirmed(actor);
    expect(failed.context.error).toBe('Invalid or expired code');
    expect(readOpenAttempt(redeemAttemptId({ userId: 42, code: 'GC-11' }))).toBeNull();
  });
});

// ---- Issuing a reward ------------------------------------------------------------------------------

function fakeIssueServer() {
  const answers = new Map<string, Reward>();
  const losses: ('request' | 'reply')[] = [];
  const s = { issued: 0 };
  const issue = async (req: IssueRequest): Promise<Reward> => {
    const loss = losses.shift();
    if (loss === 'request') throw NETWORK_ERROR;
    let answer = answers.get(req.idempotencyKey);
    if (!answer) {
      s.issued += 1;
      answer = { ...giftcard, id: 100 + s.issued, title: req.body.title } as Reward;
      answers.set(req.idempotencyKey, answer);
    }
    if (loss === 'reply') throw NETWORK_ERROR;
    return answer;
  };
  return { s, issue, lose: (...kinds: ('request' | 'reply')[]) => losses.push(...kinds) };
}

const target = { issuedTo: 42, partnerId: 3 };

function issuing(server: ReturnType<typeof fakeIssueServer>) {
  return createActor(
    issueRewardMachine.provide({
      actors: {
        issueReward: fromPromise(({ input }: { input: IssueRequest }) => issueOnce(input, server.issue)),
      },
    }),
    { input: { ...target, online: true } },
  ).start();
}

const filled = (title: string) => ({
  rewardType: 'GIFTCARD' as const,
  title,
  description: 'Thanks',
  promotionalImage: 'iVBORw0KGgo=',
});

async function submitted(actor: ReturnType<typeof issuing>) {
  actor.send({ type: 'issue.submit' });
  return waitFor(actor, (s) => s.matches('failure') || s.status === 'done');
}

describe('issuing a reward after a lost reply (issue 17)', () => {
  it('Submit again, a changed form, or a new form (a reload): one reward, "Reward issued: it went through"', async () => {
    for (const next of ['submit', 'change', 'reload'] as const) {
      localStorage.clear();
      const server = fakeIssueServer();
      const actor = issuing(server);
      actor.send({ type: 'issue.change', values: filled('Welcome gift') });
      server.lose('reply');
      const failed = await submitted(actor);
      expect(failed.context.error, next).toBe(ISSUE_OUTCOME_UNKNOWN);
      expect(readOpenAttempt(issueAttemptId(target)), next).not.toBeNull();
      let again = actor;
      if (next === 'change') actor.send({ type: 'issue.change', values: { title: 'Welcome gift, again' } });
      if (next === 'reload') {
        actor.stop();
        again = issuing(server);
        again.send({ type: 'issue.change', values: filled('Another gift') });
      }
      const done = await submitted(again);
      expect(done.status, next).toBe('done');
      expect(done.output, next).toMatchObject({
        message: ISSUED_WENT_THROUGH,
        reward: { title: 'Welcome gift' },
      });
      expect(server.s.issued, next).toBe(1);
      expect(readOpenAttempt(issueAttemptId(target)), next).toBeNull();
    }
  });

  it('an answered issue closes its attempt: the next one is a new reward', async () => {
    const server = fakeIssueServer();
    for (const title of ['First', 'Second']) {
      const actor = issuing(server);
      actor.send({ type: 'issue.change', values: filled(title) });
      const done = await submitted(actor);
      expect(done.output).toMatchObject({ message: 'Reward successfully issued', reward: { title } });
    }
    expect(server.s.issued).toBe(2);
  });
});
