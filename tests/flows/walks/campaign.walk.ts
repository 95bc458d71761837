import type { Route } from '@playwright/test';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { ApprovalSettings, Campaign, CampaignPreview } from '../../../contract/campaigns';
import { campaignMessages } from '../../../contract/campaigns';
import { formatNaira } from '../../../contract/money';
import type { Reward } from '../../../contract/rewards';
import { TEXTS } from '../../../src/lib/texts';
import type { CampaignContext, CampaignInput } from '../../../src/machines/campaign.machine';
import { campaignMachine } from '../../../src/machines/campaign.machine';
import { campaignModel, endedFirstError, REJECT_REASON } from '../../model/campaign-model';
import { TINY_PNG } from '../../model/flow-paths';
import { dialogOf, expect, expectError, type MachineWalk, type WalkContext } from '../walk-kit';
import { FlowsApi } from '../world';

/**
 * The campaign machine walked in the browser (issue 35, decision 073), signed in as the admin, on
 * campaigns for the run's partner whose segment is a list naming the run's customer (linked to the
 * partner: the one customer a campaign of the run reaches). A second person of the club (a role
 * holding campaigns.manage and rewards.approve, invited once per run) makes the campaign the admin
 * approves, and approves or rejects the admin's own. The calls of the machine's effects are held at
 * the browser's edge; the screen's poll of the campaign is held by a gate of its own until a path's
 * step says the server moved on ('the run ends', 'another person rejects it'), so the flow sees the
 * server's moves when the path says, and each move is the real server's. What a state means is
 * checked on screen and on the server, read back through the API: the campaign's state and counts,
 * and the rewards the customer holds from it (by the campaign's own title).
 */

const LINK_CODE_MAIL = /link code is: ([0-9]{6})/;
const SET_PASSWORD_MAIL = /set-password code is: ([A-Z0-9]+)/;

interface Person {
  api: FlowsApi;
  name: string;
}
/** The second person of the run (made once). */
let second: Person | null = null;

async function secondPerson(w: WalkContext): Promise<Person> {
  if (second) return second;
  const tag = w.world.tag;
  const catalogue = await w.api.call<{ id: number; name: string }[]>('GET', '/authz');
  const wanted = ['dashboard.view', 'partners.view', 'campaigns.manage', 'rewards.approve'];
  const role = await w.api.call<{ id: number }>('POST', '/admin/user/create-role', {
    roleName: `${tag} campaign approvers`,
    permissionIds: catalogue.filter((p) => wanted.includes(p.name)).map((p) => p.id),
  });
  const who = { email: `${tag}-approver@flows.test`, password: `Flows#${w.world.runId.replace(/\W/g, '')}a` };
  const seen = await w.mail.seen(who.email);
  await w.api.call('POST', '/admin/user/new-admin-user', {
    firstName: 'Ada',
    lastName: 'Approver',
    email: who.email,
    roleId: role.id,
  });
  const resetCode = await w.mail.waitFor(who.email, seen, SET_PASSWORD_MAIL);
  await w.api.call('PATCH', '/auth/update-password', { resetCode, newPassword: who.password });
  const api = new FlowsApi(w.baseUrl, who);
  await api.signIn();
  second = { api, name: 'Ada Approver' };
  return second;
}

/**
 * The amounts of a campaign of one customer: one that runs at once (at or under both thresholds)
 * and one that waits (its face value above `campaignTotalAbove`, set to ₦100,000 when the
 * deployment has none: a campaign of the walk then waits above it).
 */
async function amounts(w: WalkContext): Promise<{ runs: number; waits: number }> {
  let settings = await w.api.call<ApprovalSettings>('GET', '/admin/settings/approvals');
  if (settings.campaignTotalAbove === null)
    settings = await w.api.call<ApprovalSettings>('PUT', '/admin/settings/approvals', {
      campaignTotalAbove: 100_000,
      singleRewardAbove: settings.singleRewardAbove,
    });
  const total = settings.campaignTotalAbove ?? 100_000;
  return { runs: Math.min(500, total, settings.singleRewardAbove ?? 500), waits: total + 500 };
}

async function draft(api: FlowsApi, w: WalkContext, partnerId: number, title: string, amount: number) {
  return api.call<Campaign>('POST', '/admin/campaigns', {
    name: title,
    partnerId,
    reward: {
      rewardType: 'GIFTCARD',
      issuedAmount: amount,
      title,
      description: 'Issued by the flow walk',
      promotionalImage: TINY_PNG,
    },
    segment: { kind: 'list', customerIds: [w.world.customer.id] },
  });
}

const read = (w: WalkContext) => w.api.call<Campaign>('GET', `/admin/campaigns/${w.data.id}`);

async function serverReaches(w: WalkContext, state: Campaign['state']) {
  await expect
    .poll(async () => (await read(w)).state, {
      message: `the campaign is ${state} on the server`,
      timeout: 30_000,
    })
    .toBe(state);
}

/** A partner of the path's own (the run's customer linked to it): one the path may block. */
async function ownPartner(w: WalkContext): Promise<number> {
  const services = await w.api.call<{ records: { id: number }[] }>(
    'GET',
    '/admin/partners/extended-services?pageSize=10',
  );
  const stamp = crypto.randomUUID().slice(0, 8);
  const partner = await w.api.call<{ id: number }>('POST', '/admin/partners/invite', {
    firstName: 'Flow',
    lastName: 'Walker',
    email: `${w.world.tag}-${stamp}@flows.test`,
    phone: `080${String(Date.now()).slice(-8)}`,
    organizationName: `${w.world.tag} ${stamp} Kitchen`,
    address: `${w.world.tag}, 2 Test Street, Lagos`,
    coverImage: TINY_PNG,
    minSpendToQualify: 2000,
    extendedServiceIds: [services.records[0]?.id],
  });
  const customer = w.world.customer;
  const seen = await w.mail.seen(customer.email);
  const link = await w.api.call<{ id: number }>('POST', '/partners/customer-links', {
    email: customer.email,
    partnerId: partner.id,
  });
  const code = await w.mail.waitFor(customer.email, seen, LINK_CODE_MAIL);
  await w.api.call('POST', `/partners/customer-links/${link.id}/confirm`, { code });
  return partner.id;
}

/** Holds the screen's poll of the campaign (GET /admin/campaigns/{id}) while closed. */
interface Gate {
  open: boolean;
  held: Route[];
}

async function installGate(w: WalkContext, id: number) {
  const gate: Gate = { open: true, held: [] };
  w.data.gate = gate;
  await w.page.route(
    (url) => url.pathname === `/api/v1/admin/campaigns/${id}`,
    (route) => {
      if (route.request().method() !== 'GET' || gate.open) return route.fallback();
      gate.held.push(route);
    },
  );
}

/** Lets the screen read the campaign once the server moved on, until it shows `state`. */
async function readThrough(w: WalkContext, state: Campaign['state']) {
  const gate = w.data.gate as Gate;
  gate.open = true;
  for (const r of gate.held.splice(0)) await r.fallback().catch(() => {});
  await expect(
    w.page.getByRole('heading', { name: TEXTS.campaign.states[state], exact: true }),
  ).toBeVisible();
  gate.open = false;
}

const card = (w: WalkContext, name: string) => w.page.getByRole('region', { name });
const button = (w: WalkContext, name: string) => w.page.getByRole('button', { name, exact: true });

/** The rewards of this campaign the customer holds, by its title. */
async function rewardsOf(w: WalkContext): Promise<Reward[]> {
  const list = await w.api.call<{ records: Reward[] }>(
    'GET',
    `/admin/partners/rewards?partnerId=${w.data.partnerId}&userId=${w.world.customer.id}&pageSize=100`,
  );
  return list.records.filter((r) => r.title === w.data.title);
}

async function nothingIssued(w: WalkContext, server: Campaign) {
  expect(server.issued, 'no reward issued').toBe(0);
  expect(await rewardsOf(w), 'the customer holds no reward of it').toEqual([]);
}

export const walk: MachineWalk = {
  file: 'campaign',
  machine: campaignMachine,
  model: campaignModel,
  effects: {
    loadPreview: { method: 'GET', path: /\/admin\/campaigns\/\d+\/preview$/ },
    submitCampaign: { method: 'POST', path: /\/admin\/campaigns\/\d+\/submit$/ },
    approveCampaign: { method: 'POST', path: /\/admin\/campaigns\/\d+\/approve$/ },
    rejectCampaign: { method: 'POST', path: /\/admin\/campaigns\/\d+\/reject$/ },
    cancelCampaign: { method: 'POST', path: /\/admin\/campaigns\/\d+\/cancel$/ },
  },
  // Its own customer's rewards and links only (no code is mailed to them but a link's, once per run).
  lane: 4,
  // Another person's moves are read on the maker's screen; on the approver's the approver acts.
  offers: (s, e) => {
    const c = s.context as CampaignContext;
    // Expiry takes the club's approvalExpiryDays (a day at least) of nobody deciding: a walk cannot
    // wait for it (server/routes/approvals.test.ts moves the clock; the model test walks the step).
    if (
      e.type === 'campaign.read' &&
      (e as EventObject & { campaign: Campaign }).campaign.state === 'expired'
    )
      return false;
    if (e.type === 'campaign.read' && s.matches('waiting')) return !c.mayDecide;
    // A run of one customer ends before the run's partner (every lane's) could be blocked: the
    // failed state is walked from its own start instead.
    if (e.type === 'campaign.read' && s.matches('running'))
      return (e as EventObject & { campaign: Campaign }).campaign.state !== 'failed';
    return true;
  },
  unreachable: {
    'campaign.route always #6':
      "a campaign expires after the club's approvalExpiryDays (at least a day) with nobody deciding: a walk cannot wait that long; server/routes/approvals.test.ts moves the clock and tests/model/campaign.test.ts takes the step",
  },
  begin: async (w, path) => {
    const input = path.start.input as CampaignInput;
    const { runs, waits } = await amounts(w);
    const title = `${w.world.tag} campaign ${crypto.randomUUID().slice(0, 8)}`;
    // The path's submit is answered 'waits for approval' by the real server: above the threshold.
    const waitsOnSubmit = path.steps.some(
      (s) =>
        s.event.type === 'xstate.done.actor.submitCampaign' &&
        (s.event as EventObject & { output: Campaign }).output.state === 'awaiting_approval',
    );
    // A path whose run fails (its partner blocked before approval) has a partner of its own.
    const fails = path.steps.some(
      (s) =>
        s.event.type === 'campaign.read' &&
        (s.event as EventObject & { campaign: Campaign }).campaign.state === 'failed',
    );
    let campaign: Campaign;
    if (input.campaign.state === 'draft') {
      const partnerId = fails ? await ownPartner(w) : w.world.partner.id;
      campaign = await draft(w.api, w, partnerId, title, waitsOnSubmit ? waits : runs);
    } else {
      const maker = await secondPerson(w);
      campaign = await draft(maker.api, w, w.world.partner.id, title, waits);
      await maker.api.call('POST', `/admin/campaigns/${campaign.id}/submit`);
    }
    Object.assign(w.data, {
      id: campaign.id,
      title,
      partnerId: campaign.partner.id,
      amount: campaign.reward.issuedAmount,
      threshold: waits - 500,
    });
    await installGate(w, campaign.id);
    await w.page.goto(`/dashboard/campaigns/${campaign.id}`);
    await expect(w.page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    (w.data.gate as Gate).open = false;
  },
  step: async (w, event) => {
    const dialog = dialogOf(w.page);
    switch (event.type) {
      case 'campaign.submit':
        return button(w, 'Submit').click();
      case 'campaign.preview':
        return button(w, 'Refresh preview').click();
      case 'campaign.approve':
        // A refused rejection left its dialog open: the approver closes it first (nothing is sent).
        if (await dialog.isVisible()) await dialog.getByRole('button', { name: 'Keep it' }).click();
        return button(w, 'Approve').click();
      case 'campaign.reject':
        if (!(await dialog.isVisible())) await button(w, 'Reject').click();
        await dialog.getByLabel('Reason').fill(String(event.reason));
        return dialog.getByRole('button', { name: 'Reject campaign' }).click();
      case 'campaign.cancel': {
        // A small run ends in a moment: a cancel of a running campaign meets its end (the 409).
        if ((await read(w)).state === 'running') await serverReaches(w, 'done');
        await w.page.getByRole('button', { name: 'Cancel campaign' }).click();
        return dialog.getByRole('button', { name: 'Cancel campaign' }).click();
      }
      case 'campaign.read': {
        const to = (event.campaign as Campaign).state;
        const now = (await read(w)).state;
        const people = await secondPerson(w);
        if (to === 'rejected')
          await people.api.call('POST', `/admin/campaigns/${w.data.id}/reject`, { reason: REJECT_REASON });
        if (to === 'failed') {
          // The partner is blocked while the campaign waits; approved, its run stops at once.
          await w.api.call('PATCH', '/admin/partners/update-status', {
            partnerId: w.data.partnerId,
            accountStatus: 'BLOCKED',
          });
          await people.api.call('POST', `/admin/campaigns/${w.data.id}/approve`);
        }
        if (to === 'done' && now === 'awaiting_approval')
          await people.api.call('POST', `/admin/campaigns/${w.data.id}/approve`);
        await serverReaches(w, to);
        return readThrough(w, to);
      }
    }
    if (event.type === 'xstate.error.actor.cancelCampaign' && event.error === endedFirstError) {
      // The real server's refusal: the run ended before the cancel arrived.
      await w.edge.pass('cancelCampaign');
      return;
    }
    if (await w.edge.settle(event)) return;
    throw new Error(`no way to do ${event.type} in the browser`);
  },
  check: async (w, s: AnyMachineSnapshot) => {
    const c = s.context as CampaignContext;
    // After a call let through at the edge, the server is read once the page has its answer.
    const settledStates = ['done', 'cancelled', 'rejected', 'failed'];
    if (settledStates.includes(String(s.value)))
      await expect
        .poll(async () => settledStates.includes((await read(w)).state), {
          message: 'the server holds a settled campaign',
        })
        .toBe(true);
    const server = await read(w);
    const amount = Number(w.data.amount);
    switch (String(s.value)) {
      case 'previewing':
        await expect(w.page.getByRole('status').filter({ hasText: 'Counting the customers' })).toBeVisible();
        expect(w.edge.holding('loadPreview'), 'the preview is asked for').toBeGreaterThan(0);
        return expect(server.state).toBe('draft');
      case 'preview': {
        const preview = card(w, 'Preview');
        expect(server.state, 'still a draft: nothing submitted').toBe('draft');
        await expectError(preview, c.error);
        if (!c.preview) {
          await expect(preview.getByText(TEXTS.campaign.noPreview)).toBeVisible();
          return expect(button(w, 'Submit')).toBeDisabled();
        }
        // The list names the run's customer, linked to the partner: one customer, one gift card's value.
        const figures = await w.api.call<CampaignPreview>('GET', `/admin/campaigns/${w.data.id}/preview`);
        expect([figures.count, figures.totalValue]).toEqual([1, amount]);
        const shown = preview.getByTestId('campaign-preview');
        await expect(shown).toContainText(/Customers to reward\s*1/);
        await expect(shown).toContainText(`Total face value${formatNaira(amount)}`);
        return expect(button(w, 'Submit')).toBeEnabled();
      }
      case 'submitting':
        await expect(w.page.getByRole('button', { name: /Submit/ })).toHaveAttribute('aria-busy', 'true');
        expect(w.edge.holding('submitCampaign')).toBe(1);
        return expect(server.state, 'held at the edge: not submitted yet').toBe('draft');
      case 'waiting': {
        const waiting = card(w, 'Waiting for approval');
        // The reject dialog is modal: the page behind it is hidden from the accessibility tree.
        if (await dialogOf(w.page).isVisible())
          await expect(dialogOf(w.page)).toHaveAccessibleName('Reject campaign');
        else
          await expect(
            waiting.getByRole('heading', { name: TEXTS.campaign.states.awaiting_approval }),
          ).toBeVisible();
        // The submit let through at the edge is answered by now: the server holds it waiting.
        await expect.poll(async () => (await read(w)).state).toBe('awaiting_approval');
        // It waits because its face value is above the club's threshold.
        expect((await read(w)).totalValue).toBeGreaterThan(Number(w.data.threshold));
        const dialog = dialogOf(w.page);
        if (!(await dialog.isVisible())) {
          await expect(button(w, 'Approve')).toHaveCount(c.mayDecide ? 1 : 0);
          await expect(button(w, 'Reject')).toHaveCount(c.mayDecide ? 1 : 0);
        }
        if (c.reasonError) await expect(dialog.getByText(c.reasonError)).toBeVisible();
        // A refused rejection keeps its dialog open, with the refusal in it.
        await expectError((await dialog.isVisible()) ? dialog : waiting, c.error);
        return nothingIssued(w, server);
      }
      case 'approving':
        await expect(w.page.getByRole('button', { name: /^Approv/ })).toHaveAttribute('aria-busy', 'true');
        return expect(server.state).toBe('awaiting_approval');
      case 'rejecting':
        await expect(dialogOf(w.page).getByRole('button', { name: /Reject/ })).toHaveAttribute(
          'aria-busy',
          'true',
        );
        return expect(server.state).toBe('awaiting_approval');
      case 'running': {
        const running = card(w, 'Progress');
        await expect(running.getByRole('heading', { name: TEXTS.campaign.states.running })).toBeVisible();
        await expect(running.getByRole('status')).toContainText(/of 1 customers handled/);
        // Started on the server: running, or already done (a run of one customer ends in a moment).
        // The submit or approval let through at the edge may still be on its way: read until it lands.
        await expect
          .poll(async () => ['running', 'done'].includes((await read(w)).state), {
            message: 'the server has started the campaign',
          })
          .toBe(true);
        expect((await read(w)).submittedAt).not.toBeNull();
        if (c.error)
          await expect(running.getByRole('alert')).toHaveText(campaignMessages.notCancellable('done'));
        return;
      }
      case 'cancelling':
        await expect(w.page.getByRole('status').filter({ hasText: 'Cancelling the campaign' })).toBeVisible();
        return expect(w.edge.holding('cancelCampaign')).toBe(1);
      case 'done': {
        await expect(
          w.page.getByRole('heading', { name: TEXTS.campaign.states.done, exact: true }),
        ).toBeVisible();
        await expect(w.page.getByTestId('campaign-outcome')).toHaveText(
          'Finished: 1 reward issued, 0 skipped.',
        );
        expect([server.state, server.issued, server.skipped, server.total]).toEqual(['done', 1, 0, 1]);
        // The customer holds the campaign's gift card: one, of the amount, untouched.
        const held = await rewardsOf(w);
        expect(held.map((r) => [r.rewardType, r.issuedAmount, r.balance, r.status])).toEqual([
          ['GIFTCARD', amount, amount, 'Active'],
        ]);
        return;
      }
      case 'cancelled':
        await expect(w.page.getByRole('heading', { name: TEXTS.campaign.states.cancelled })).toBeVisible();
        expect(server.state).toBe('cancelled');
        return nothingIssued(w, server);
      case 'rejected':
        await expect(w.page.getByRole('heading', { name: TEXTS.campaign.states.rejected })).toBeVisible();
        await expect(w.page.getByTestId('campaign-outcome')).toContainText(REJECT_REASON);
        expect([server.state, server.rejectionReason]).toEqual(['rejected', REJECT_REASON]);
        // Rejected by the second person of the two: the one who did not make it.
        expect(server.rejectedBy).not.toBeNull();
        expect(server.rejectedBy?.name).not.toBe(server.createdBy?.name);
        return nothingIssued(w, server);
      case 'failed':
        await expect(w.page.getByRole('heading', { name: TEXTS.campaign.states.failed })).toBeVisible();
        await expect(w.page.getByTestId('campaign-outcome')).toContainText(
          'the partner was blocked or deleted',
        );
        expect([server.state, server.error]).toEqual(['failed', 'the partner was blocked or deleted']);
        return nothingIssued(w, server);
    }
    throw new Error(`no check for state ${JSON.stringify(s.value)}`);
  },
};
