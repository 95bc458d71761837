import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  type Campaign,
  type CampaignPreview,
  campaignMessages,
  rejectCampaignBodySchema,
} from '../../contract/campaigns';
import { campaignMachine, rejectReasonProblem } from './campaign.machine';

const base: Campaign = {
  id: 7,
  name: 'December thank-you',
  partner: { id: 3, organizationName: 'Mama Put Kitchen' },
  state: 'draft',
  reward: {
    rewardType: 'GIFTCARD',
    rewardTypeCategory: 'GENERAL',
    issuedAmount: 2500,
    percentageDiscount: null,
    title: 'Thank you',
    description: 'A gift card for a year with us',
    expiryDate: null,
    promotionalImage: null,
  },
  segment: { kind: 'eligible' },
  total: null,
  issued: 0,
  skipped: 0,
  totalValue: null,
  createdBy: { id: 1, name: 'Mira Okon' },
  approvedBy: null,
  rejectedBy: null,
  rejectionReason: null,
  error: null,
  createdAt: '2026-11-28T09:00:00.000Z',
  submittedAt: null,
  decidedAt: null,
  finishedAt: null,
};
const as = (state: Campaign['state'], more: Partial<Campaign> = {}): Campaign => ({
  ...base,
  state,
  ...more,
});

const preview: CampaignPreview = {
  count: 4,
  totalValue: 10_000,
  skipped: {
    count: 1,
    byReason: { not_found: 0, erased: 0, blocked: 1, not_linked: 0, already_rewarded: 0 },
    customers: [{ customerId: 9, ref: null, reason: 'blocked' }],
  },
  needsApproval: false,
  approvalReasons: [],
};

type Call = { actor: string; input: unknown };
type Answer = (input: { id: number; reason?: string }) => unknown;

/** A server whose answers the test names per call; every call is recorded. */
function start(campaign: Campaign, answers: Partial<Record<string, Answer>> = {}, mayDecide = false) {
  const calls: Call[] = [];
  const fake = <O, I extends { id: number }>(actor: string, fallback: Answer) =>
    fromPromise<O, I>(async ({ input }) => {
      calls.push({ actor, input });
      return (await (answers[actor] ?? fallback)(input)) as O;
    });
  const actor = createActor(
    campaignMachine.provide({
      actors: {
        loadPreview: fake<CampaignPreview, { id: number }>('loadPreview', () => preview),
        submitCampaign: fake<Campaign, { id: number }>('submitCampaign', () => as('running', { total: 5 })),
        approveCampaign: fake<Campaign, { id: number }>('approveCampaign', () =>
          as('running', { approvedBy: { id: 2, name: 'Ade' } }),
        ),
        rejectCampaign: fake<Campaign, { id: number; reason: string }>('rejectCampaign', ({ reason }) =>
          as('rejected', { rejectedBy: { id: 2, name: 'Ade' }, rejectionReason: reason ?? null }),
        ),
        cancelCampaign: fake<Campaign, { id: number }>('cancelCampaign', () => as('cancelled')),
      },
    }),
    { input: { campaign, mayDecide } },
  ).start();
  return { actor, calls };
}

describe('campaign machine', () => {
  it('a draft loads its preview; Submit under the thresholds runs it', async () => {
    const { actor, calls } = start(base);
    await waitFor(actor, (s) => s.matches('preview'));
    expect(actor.getSnapshot().context.preview).toEqual(preview);
    actor.send({ type: 'campaign.submit' });
    await waitFor(actor, (s) => s.matches('running'));
    expect(actor.getSnapshot().context.campaign.total).toBe(5);
    expect(calls).toEqual([
      { actor: 'loadPreview', input: { id: 7 } },
      { actor: 'submitCampaign', input: { id: 7 } },
    ]);
    // The run ends on the server: the poll's read moves the flow to done.
    actor.send({ type: 'campaign.read', campaign: as('done', { total: 5, issued: 4, skipped: 1 }) });
    expect(actor.getSnapshot().value).toBe('done');
    expect(actor.getSnapshot().status).toBe('done');
  });

  it("above a threshold the server's answer is waiting: the flow waits, whatever it expected", async () => {
    const { actor } = start(base, { submitCampaign: () => as('awaiting_approval', { total: 5 }) });
    await waitFor(actor, (s) => s.matches('preview'));
    actor.send({ type: 'campaign.submit' });
    await waitFor(actor, (s) => s.matches('waiting'));
    // The maker holds no decision: approve and reject are ignored, nothing is sent.
    actor.send({ type: 'campaign.approve' });
    actor.send({ type: 'campaign.reject', reason: 'No' });
    expect(actor.getSnapshot().value).toBe('waiting');
    // Another person rejects it: the read brings the reason.
    actor.send({
      type: 'campaign.read',
      campaign: as('rejected', { rejectionReason: 'Too generous', rejectedBy: { id: 2, name: 'Ade' } }),
    });
    expect(actor.getSnapshot().value).toBe('rejected');
    expect(actor.getSnapshot().context.campaign.rejectionReason).toBe('Too generous');
  });

  it('a second person approves a waiting campaign: it runs', async () => {
    const { actor, calls } = start(as('awaiting_approval', { total: 5 }), {}, true);
    expect(actor.getSnapshot().value).toBe('waiting');
    actor.send({ type: 'campaign.approve' });
    await waitFor(actor, (s) => s.matches('running'));
    expect(calls).toEqual([{ actor: 'approveCampaign', input: { id: 7 } }]);
    expect(actor.getSnapshot().context.campaign.approvedBy?.name).toBe('Ade');
  });

  it('a rejection needs a reason (the contract message, nothing sent); with one it is sent trimmed', async () => {
    const { actor, calls } = start(as('awaiting_approval'), {}, true);
    actor.send({ type: 'campaign.reject', reason: '   ' });
    expect(actor.getSnapshot().context.reasonError).toBe(campaignMessages.reasonRequired);
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(calls).toEqual([]);
    actor.send({ type: 'campaign.reject', reason: '  Too generous ' });
    await waitFor(actor, (s) => s.matches('rejected'));
    expect(calls).toEqual([{ actor: 'rejectCampaign', input: { id: 7, reason: 'Too generous' } }]);
    expect(actor.getSnapshot().context.reasonError).toBeNull();
  });

  it("the maker's approval refused by the server (403) shows its words and keeps waiting", async () => {
    const refusal = { status: 403, message: campaignMessages.ownCampaign, errors: [] };
    const { actor } = start(
      as('awaiting_approval'),
      { approveCampaign: () => Promise.reject(refusal) },
      true,
    );
    actor.send({ type: 'campaign.approve' });
    await waitFor(actor, (s) => s.matches('waiting') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(campaignMessages.ownCampaign);
  });

  it('a failed submit goes back to the preview with the reason; a retry clears it', async () => {
    let first = true;
    const { actor } = start(base, {
      submitCampaign: () => {
        if (!first) return as('running', { total: 5 });
        first = false;
        return Promise.reject({ status: 409, message: campaignMessages.empty, errors: [] });
      },
    });
    await waitFor(actor, (s) => s.matches('preview'));
    actor.send({ type: 'campaign.submit' });
    await waitFor(actor, (s) => s.matches('preview') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(campaignMessages.empty);
    actor.send({ type: 'campaign.submit' });
    await waitFor(actor, (s) => s.matches('running'));
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('cancel: a running campaign is cancelled; one that ended first stays as read, with the refusal', async () => {
    const { actor } = start(as('running', { total: 5 }));
    actor.send({ type: 'campaign.cancel' });
    await waitFor(actor, (s) => s.matches('cancelled'));

    const refusal = { status: 409, message: campaignMessages.notCancellable('done'), errors: [] };
    const late = start(as('running', { total: 5 }), { cancelCampaign: () => Promise.reject(refusal) });
    late.actor.send({ type: 'campaign.cancel' });
    await waitFor(late.actor, (s) => s.matches('running') && s.context.error !== null);
    expect(late.actor.getSnapshot().context.error).toBe(campaignMessages.notCancellable('done'));
    late.actor.send({ type: 'campaign.read', campaign: as('done', { total: 5, issued: 5 }) });
    expect(late.actor.getSnapshot().value).toBe('done');
  });

  it('a reload or another tab: the flow starts where the server says', () => {
    const cases: [Campaign['state'], string][] = [
      ['awaiting_approval', 'waiting'],
      ['running', 'running'],
      ['done', 'done'],
      ['cancelled', 'cancelled'],
      ['rejected', 'rejected'],
      ['failed', 'failed'],
      ['expired', 'expired'],
    ];
    for (const [state, value] of cases) expect(start(as(state)).actor.getSnapshot().value).toBe(value);
  });

  it('a preview that fails says so; Refresh preview loads it again', async () => {
    let fail = true;
    const { actor, calls } = start(base, {
      loadPreview: () => (fail ? Promise.reject({ status: 0, message: 'Network Error' }) : preview),
    });
    await waitFor(actor, (s) => s.matches('preview') && s.context.error !== null);
    expect(actor.getSnapshot().context.preview).toBeNull();
    expect(actor.getSnapshot().context.error).toBe('Network Error');
    fail = false;
    actor.send({ type: 'campaign.preview' });
    await waitFor(actor, (s) => s.matches('preview') && s.context.preview !== null);
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(calls).toHaveLength(2);
  });

  it('submitted in another tab: the read leaves the preview for the state the server holds', async () => {
    const { actor, calls } = start(base);
    await waitFor(actor, (s) => s.matches('preview'));
    actor.send({ type: 'campaign.read', campaign: as('awaiting_approval', { total: 5 }) });
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(calls.map((c) => c.actor)).toEqual(['loadPreview']);
  });

  it('a campaign that ended (done, cancelled, rejected, failed, expired) is over: the flow stops', () => {
    for (const state of ['done', 'cancelled', 'rejected', 'failed', 'expired'] as const) {
      const { actor, calls } = start(as(state), {}, true);
      expect(actor.getSnapshot().value).toBe(state);
      expect(actor.getSnapshot().status).toBe('done');
      // Nothing is left to do: no event sends a call.
      actor.send({ type: 'campaign.cancel' });
      actor.send({ type: 'campaign.approve' });
      expect(calls).toEqual([]);
    }
  });

  it("a reason longer than 500 characters is refused with the contract's words; nothing is sent", () => {
    const tooLong = 'x'.repeat(501);
    const words = rejectCampaignBodySchema.safeParse({ reason: tooLong }).error?.issues[0]?.message;
    expect(words).toBeTruthy();
    expect(rejectReasonProblem(tooLong)).toBe(words);
    expect(rejectReasonProblem('')).toBe(campaignMessages.reasonRequired);
    expect(rejectReasonProblem('x'.repeat(500))).toBeNull();
    const { actor, calls } = start(as('awaiting_approval'), {}, true);
    actor.send({ type: 'campaign.reject', reason: tooLong });
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(actor.getSnapshot().context.reasonError).toBe(words);
    expect(calls).toEqual([]);
  });

  it("a rejection the server refuses on its reason keeps waiting with the server's words on the reason", async () => {
    const refusal = {
      status: 400,
      message: 'Validation failed',
      errors: [{ fieldName: 'reason', message: 'reason names a customer' }],
    };
    const { actor, calls } = start(
      as('awaiting_approval'),
      { rejectCampaign: () => Promise.reject(refusal) },
      true,
    );
    actor.send({ type: 'campaign.reject', reason: 'Too generous' });
    expect(actor.getSnapshot().value).toBe('rejecting');
    await waitFor(actor, (s) => s.matches('waiting'));
    expect(actor.getSnapshot().context.reasonError).toBe('reason names a customer');
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(calls).toEqual([{ actor: 'rejectCampaign', input: { id: 7, reason: 'Too generous' } }]);
  });

  it('a rejection refused for another cause keeps waiting with the sentence, the reason left clear', async () => {
    const notWaiting = { status: 409, message: campaignMessages.notWaiting('running'), errors: [] };
    const first = start(as('awaiting_approval'), { rejectCampaign: () => Promise.reject(notWaiting) }, true);
    first.actor.send({ type: 'campaign.reject', reason: 'Too generous' });
    await waitFor(first.actor, (s) => s.matches('waiting') && s.context.error !== null);
    expect(first.actor.getSnapshot().context.error).toBe(campaignMessages.notWaiting('running'));
    expect(first.actor.getSnapshot().context.reasonError).toBeNull();

    // A field error about something else is not the reason's.
    const other = {
      status: 400,
      message: 'Validation failed',
      errors: [{ fieldName: 'id', message: 'id must be a positive number' }],
    };
    const second = start(as('awaiting_approval'), { rejectCampaign: () => Promise.reject(other) }, true);
    second.actor.send({ type: 'campaign.reject', reason: 'Too generous' });
    await waitFor(second.actor, (s) => s.matches('waiting') && s.context.error !== null);
    expect(second.actor.getSnapshot().context.error).toBe('Id must be a positive number.');
    expect(second.actor.getSnapshot().context.reasonError).toBeNull();
  });

  describe('a new try clears the last refusal while it is under way', () => {
    /** The first call is refused with `refusal`; the next ones stay under way (never answered). */
    const refusedThenPending = (refusal: unknown) => {
      let calls = 0;
      return () => (calls++ === 0 ? Promise.reject(refusal) : new Promise(() => {}));
    };
    const conflict = { status: 409, message: 'Try again later', errors: [] };

    it('from the preview: Submit again, or Cancel', async () => {
      const again = start(base, { submitCampaign: refusedThenPending(conflict) });
      await waitFor(again.actor, (s) => s.matches('preview'));
      again.actor.send({ type: 'campaign.submit' });
      await waitFor(again.actor, (s) => s.matches('preview') && s.context.error !== null);
      again.actor.send({ type: 'campaign.submit' });
      expect(again.actor.getSnapshot().value).toBe('submitting');
      expect(again.actor.getSnapshot().context.error).toBeNull();
      again.actor.stop();

      const cancel = start(base, {
        submitCampaign: () => Promise.reject(conflict),
        cancelCampaign: () => new Promise(() => {}),
      });
      await waitFor(cancel.actor, (s) => s.matches('preview'));
      cancel.actor.send({ type: 'campaign.submit' });
      await waitFor(cancel.actor, (s) => s.matches('preview') && s.context.error !== null);
      cancel.actor.send({ type: 'campaign.cancel' });
      expect(cancel.actor.getSnapshot().value).toBe('cancelling');
      expect(cancel.actor.getSnapshot().context.error).toBeNull();
      cancel.actor.stop();
    });

    it('while waiting: Approve, Reject or Cancel after a refused approval', async () => {
      for (const next of [
        { type: 'campaign.approve' as const, state: 'approving' },
        { type: 'campaign.reject' as const, reason: 'Too generous', state: 'rejecting' },
        { type: 'campaign.cancel' as const, state: 'cancelling' },
      ]) {
        const { actor } = start(
          as('awaiting_approval'),
          {
            approveCampaign: refusedThenPending(conflict),
            rejectCampaign: () => new Promise(() => {}),
            cancelCampaign: () => new Promise(() => {}),
          },
          true,
        );
        actor.send({ type: 'campaign.approve' });
        await waitFor(actor, (s) => s.matches('waiting') && s.context.error !== null);
        expect(actor.getSnapshot().context.error).toBe('Try again later');
        const { state, ...event } = next;
        actor.send(event);
        expect(actor.getSnapshot().value).toBe(state);
        expect(actor.getSnapshot().context.error).toBeNull();
        actor.stop();
      }
    });

    it("while waiting: Approve or a valid reason clears a refused reason's message", () => {
      for (const next of [
        { type: 'campaign.approve' as const, state: 'approving' },
        { type: 'campaign.reject' as const, reason: 'Too generous', state: 'rejecting' },
      ]) {
        const { actor } = start(
          as('awaiting_approval'),
          { approveCampaign: () => new Promise(() => {}), rejectCampaign: () => new Promise(() => {}) },
          true,
        );
        actor.send({ type: 'campaign.reject', reason: '' });
        expect(actor.getSnapshot().context.reasonError).toBe(campaignMessages.reasonRequired);
        const { state, ...event } = next;
        actor.send(event);
        expect(actor.getSnapshot().value).toBe(state);
        expect(actor.getSnapshot().context.reasonError).toBeNull();
        actor.stop();
      }
    });

    it('while running: Cancel again after a refused cancel', async () => {
      const { actor } = start(as('running', { total: 5 }), { cancelCampaign: refusedThenPending(conflict) });
      actor.send({ type: 'campaign.cancel' });
      await waitFor(actor, (s) => s.matches('running') && s.context.error !== null);
      actor.send({ type: 'campaign.cancel' });
      expect(actor.getSnapshot().value).toBe('cancelling');
      expect(actor.getSnapshot().context.error).toBeNull();
      actor.stop();
    });
  });
});
