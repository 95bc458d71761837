import { expect } from 'vitest';
import { campaignMessages } from '../../contract/campaigns';
import { type CampaignContext, campaignMachine } from '../../src/machines/campaign.machine';
import { campaignModel, campaignNetworkError, endedFirstError, REJECT_REASON } from './campaign-model';
import type { FlowHarness } from './flow-runner';
import { modelSuite } from './model-suite';

/**
 * What each step of a campaign's flow must do, from the product's rules (issue 35): a call only for
 * the person allowed to make it, a rejection only with a reason, the server's state followed.
 */
const harness: FlowHarness = {
  provide: (fakes) =>
    campaignMachine.provide({
      actors: {
        loadPreview: fakes.actor('loadPreview'),
        submitCampaign: fakes.actor('submitCampaign'),
        approveCampaign: fakes.actor('approveCampaign'),
        rejectCampaign: fakes.actor('rejectCampaign'),
        cancelCampaign: fakes.actor('cancelCampaign'),
      },
    }),
  check: ({ step, before, after, newCalls }) => {
    const b = before.context as CampaignContext;
    const c = after.context as CampaignContext;
    const e = step.event as { type: string; reason?: string; error?: unknown };
    const id = { id: b.campaign.id };
    if (e.type === 'campaign.approve') {
      // Only a second person approves; the maker's click sends nothing.
      expect(newCalls).toEqual(b.mayDecide ? [{ id: 'approveCampaign', input: id }] : []);
      // The reject dialog is closed to approve: a refused reason is not shown any more.
      if (b.mayDecide) expect(c.reasonError).toBeNull();
    }
    if (e.type === 'campaign.reject') {
      if (!b.mayDecide || !e.reason?.trim()) expect(newCalls).toEqual([]);
      else expect(newCalls).toEqual([{ id: 'rejectCampaign', input: { ...id, reason: REJECT_REASON } }]);
      if (b.mayDecide && !e.reason?.trim()) expect(c.reasonError).toBe(campaignMessages.reasonRequired);
    }
    if (e.type === 'campaign.submit') expect(newCalls).toEqual([{ id: 'submitCampaign', input: id }]);
    if (e.type === 'campaign.cancel') expect(newCalls).toEqual([{ id: 'cancelCampaign', input: id }]);
    if (e.error === campaignNetworkError) expect(c.error).toBe('Network Error');
    if (e.error === endedFirstError) {
      // The run ended first: the refusal is shown and the flow stays with the run until the poll.
      expect(c.error).toBe(campaignMessages.notCancellable('done'));
      expect(after.matches('running')).toBe(true);
    }
    // Wherever the flow rests, it stands for the campaign's state on the server.
    const stands: Record<string, string[]> = {
      preview: ['draft'],
      waiting: ['awaiting_approval'],
      running: ['running'],
      done: ['done'],
      cancelled: ['cancelled'],
      rejected: ['rejected'],
      failed: ['failed'],
      expired: ['expired'],
    };
    const value = String(after.value);
    if (stands[value]) expect(stands[value]).toContain(c.campaign.state);
  },
};

modelSuite(campaignModel, harness);
