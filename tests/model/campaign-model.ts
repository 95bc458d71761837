import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { type Campaign, type CampaignPreview, campaignMessages } from '../../contract/campaigns';
import { type CampaignContext, campaignMachine } from '../../src/machines/campaign.machine';
import type { FlowModel } from './flow-engine';

/**
 * A campaign's flow in the console (issue 35, decision 073): the preview of a draft, Submit (it
 * runs, or waits for a second person), approve or reject by that person, cancel, and the server's
 * own moves read by the screen's poll (the run's end, another person's decision). Shared by
 * tests/model/campaign.test.ts and the browser walk (tests/flows/walks/campaign.walk.ts).
 */

const campaign = (state: Campaign['state'], more: Partial<Campaign> = {}): Campaign => ({
  id: 41,
  name: 'December thank-you',
  partner: { id: 12, organizationName: 'Mama Put Kitchen' },
  state,
  reward: {
    rewardType: 'GIFTCARD',
    rewardTypeCategory: 'GENERAL',
    issuedAmount: 500,
    percentageDiscount: null,
    title: 'Thank you',
    description: 'A gift card for a year with us',
    expiryDate: null,
    promotionalImage: null,
  },
  segment: { kind: 'list', customerIds: [5] },
  total: state === 'draft' ? null : 1,
  issued: state === 'done' ? 1 : 0,
  skipped: 0,
  totalValue: state === 'draft' ? null : 500,
  createdBy: { id: 1, name: 'Mira Okon' },
  approvedBy: null,
  rejectedBy: null,
  rejectionReason: null,
  error: null,
  createdAt: '2026-11-28T09:00:00.000Z',
  submittedAt: state === 'draft' ? null : '2026-11-28T09:05:00.000Z',
  decidedAt: null,
  finishedAt: null,
  ...more,
});

export const REJECT_REASON = 'Too generous for this month';
export const draftCampaign = campaign('draft');
export const waitingCampaign = campaign('awaiting_approval', { totalValue: 150_500 });
export const runningCampaign = campaign('running');
export const doneCampaign = campaign('done');
export const cancelledCampaign = campaign('cancelled');
export const rejectedCampaign = campaign('rejected', {
  rejectedBy: { id: 2, name: 'Ade Bello' },
  rejectionReason: REJECT_REASON,
});
export const failedCampaign = campaign('failed', { error: 'the partner was blocked or deleted' });
/** Nobody decided within the club's approvalExpiryDays (decision 074): nothing issued. */
export const expiredCampaign = campaign('expired', { totalValue: 150_500 });

export const campaignPreview: CampaignPreview = {
  count: 1,
  totalValue: 500,
  skipped: {
    count: 0,
    byReason: { not_found: 0, erased: 0, blocked: 0, not_linked: 0, already_rewarded: 0 },
    customers: [],
  },
  needsApproval: false,
  approvalReasons: [],
};

export const campaignNetworkError = { status: 0, message: 'Network Error', errors: [] };
/** Cancel reaches the server after the run ended (a small campaign ends in a moment). */
export const endedFirstError = { status: 409, message: campaignMessages.notCancellable('done'), errors: [] };

const submitted = (output: Campaign) => ({ type: 'xstate.done.actor.submitCampaign', output });

export const campaignModel: FlowModel<typeof campaignMachine> = {
  name: 'campaign',
  title: 'Campaign: preview, submit, four eyes, the run and cancel',
  machine: campaignMachine,
  starts: [
    { label: 'A draft of my own', input: { campaign: draftCampaign, mayDecide: false } },
    {
      label: "Someone else's campaign waiting for my approval",
      input: { campaign: waitingCampaign, mayDecide: true },
    },
  ],
  events: (s) => {
    const c = s.context as CampaignContext;
    const value = String(s.value);
    const byState: Record<string, Array<EventObject & Record<string, unknown>>> = {
      previewing: [
        { type: 'xstate.done.actor.loadPreview', output: campaignPreview },
        { type: 'xstate.error.actor.loadPreview', error: campaignNetworkError },
      ],
      preview: [{ type: 'campaign.submit' }, { type: 'campaign.cancel' }, { type: 'campaign.preview' }],
      submitting: [
        submitted(runningCampaign),
        submitted(waitingCampaign),
        { type: 'xstate.error.actor.submitCampaign', error: campaignNetworkError },
      ],
      waiting: [
        { type: 'campaign.approve' },
        { type: 'campaign.reject', reason: '' },
        { type: 'campaign.reject', reason: REJECT_REASON },
        { type: 'campaign.cancel' },
        { type: 'campaign.read', campaign: doneCampaign },
        { type: 'campaign.read', campaign: rejectedCampaign },
        { type: 'campaign.read', campaign: failedCampaign },
        { type: 'campaign.read', campaign: expiredCampaign },
      ],
      approving: [
        { type: 'xstate.done.actor.approveCampaign', output: runningCampaign },
        { type: 'xstate.error.actor.approveCampaign', error: campaignNetworkError },
      ],
      rejecting: [
        { type: 'xstate.done.actor.rejectCampaign', output: rejectedCampaign },
        { type: 'xstate.error.actor.rejectCampaign', error: campaignNetworkError },
      ],
      running: [
        { type: 'campaign.cancel' },
        { type: 'campaign.read', campaign: doneCampaign },
        { type: 'campaign.read', campaign: failedCampaign },
      ],
      cancelling:
        c.campaign.state === 'running'
          ? [{ type: 'xstate.error.actor.cancelCampaign', error: endedFirstError }]
          : [
              { type: 'xstate.done.actor.cancelCampaign', output: cancelledCampaign },
              { type: 'xstate.error.actor.cancelCampaign', error: campaignNetworkError },
            ],
    };
    return byState[value] ?? [];
  },
  abstract: (s) => {
    const c = s.context as CampaignContext;
    return {
      server: c.campaign.state,
      mayDecide: c.mayDecide,
      preview: c.preview !== null,
      error: c.error !== null,
      reasonError: c.reasonError !== null,
    };
  },
  eventCase: (e) => {
    const ev = e as EventObject & {
      reason?: string;
      campaign?: Campaign;
      output?: { state?: string };
      error?: { status?: number };
    };
    if (e.type === 'campaign.reject') return `${e.type} ${ev.reason ? 'with a reason' : 'empty'}`;
    if (e.type === 'campaign.read') return `${e.type} ${ev.campaign?.state}`;
    if (ev.output?.state) return `${e.type} ${ev.output.state}`;
    return `${e.type}${ev.error ? ` ${ev.error.status}` : ''}`;
  },
  describeEvent: (e) => {
    const ev = e as EventObject & {
      reason?: string;
      campaign?: Campaign;
      output?: Campaign | CampaignPreview;
      error?: unknown;
    };
    const noAnswer = ev.error === campaignNetworkError ? 'no answer (Network Error)' : '';
    switch (e.type) {
      case 'campaign.submit':
        return 'press Submit';
      case 'campaign.cancel':
        return 'press Cancel campaign and confirm';
      case 'campaign.preview':
        return 'press Refresh preview';
      case 'campaign.approve':
        return 'press Approve';
      case 'campaign.reject':
        return ev.reason ? `reject with the reason "${ev.reason}"` : 'reject with no reason';
      case 'campaign.read':
        return ev.campaign?.state === 'rejected'
          ? 'another person rejects it (the poll reads it)'
          : ev.campaign?.state === 'done'
            ? 'the run ends (the poll reads it)'
            : ev.campaign?.state === 'failed'
              ? 'the partner is blocked mid-run: the run fails (the poll reads it)'
              : ev.campaign?.state === 'expired'
                ? 'nobody decides within the approval period: it expires (the poll reads it)'
                : `the poll reads ${ev.campaign?.state}`;
      case 'xstate.done.actor.loadPreview':
        return 'the server counts the customers';
      case 'xstate.error.actor.loadPreview':
        return `the preview: ${noAnswer}`;
      case 'xstate.done.actor.submitCampaign':
        return (ev.output as Campaign).state === 'running'
          ? 'the server starts it'
          : 'the server makes it wait (above a threshold)';
      case 'xstate.done.actor.approveCampaign':
        return 'the server approves and starts it';
      case 'xstate.done.actor.rejectCampaign':
        return 'the server rejects it';
      case 'xstate.done.actor.cancelCampaign':
        return 'the server cancels it';
      case 'xstate.error.actor.cancelCampaign':
        return ev.error === endedFirstError
          ? 'the server refuses: the run ended first (409)'
          : `cancel: ${noAnswer}`;
      default:
        return noAnswer ? `${e.type.replace('xstate.error.actor.', '')}: ${noAnswer}` : e.type;
    }
  },
  describeState: (s: AnyMachineSnapshot) => {
    const c = s.context as CampaignContext;
    return `${String(s.value)} (server: ${c.campaign.state})${c.error ? ` — "${c.error}"` : ''}${
      c.reasonError ? ` (reason: "${c.reasonError}")` : ''
    }`;
  },
};
