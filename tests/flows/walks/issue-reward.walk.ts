import type { AnyMachineSnapshot } from 'xstate';
import { rewardMessages } from '../../../contract/rewards';
import { type IssueRewardContext, issueRewardMachine } from '../../../src/machines/issue-reward.machine';
import { validateIssueValues } from '../../../src/machines/issue-reward-form';
import { issueRewardModel, TINY_PNG } from '../../model/flow-paths';
import { dialogOf, expect, expectError, type MachineWalk, setNetwork } from '../walk-kit';

/**
 * The Issue Reward form walked in the browser: the run's eligible customer on the partner's
 * Eligible users tab, its 'Issue Reward to …' action, the form filled as the path says; the issue
 * call is held at the browser's edge until the path says how it ends.
 */

const PNG = Buffer.from(TINY_PNG, 'base64');

export const walk: MachineWalk = {
  // No mail and its own rewards: a lane of its own (ci:flows time).
  lane: 4,
  file: 'issue-reward',
  machine: issueRewardMachine,
  model: issueRewardModel,
  effects: { issueReward: { method: 'POST', path: /\/partners\/rewards\/issue-reward$/ } },
  unreachable: {
    'issueReward.editing issue.submit #1':
      "the guard 'no customer chosen': every Issue Reward action on the screens names its customer",
  },
  unwalkable: (path) => {
    if ((path.start.input as { issuedTo: number | null }).issuedTo === null)
      return 'starts with no customer chosen; every Issue Reward action names one';
    let type = '';
    for (const step of path.steps) {
      const values = (step.event as { values?: Record<string, string> }).values;
      if (values?.rewardType) type = values.rewardType;
      if (values?.issuedAmount !== undefined && type !== 'GIFTCARD')
        return 'sets an amount while no gift card is chosen; the field exists only for gift cards';
    }
    return null;
  },
  begin: async (w) => {
    await w.page.goto(`/dashboard/partners/${w.world.partner.id}?activeTab=eligible`);
    await w.page
      .getByRole('button', { name: `Issue Reward to ${w.world.customer.name}` })
      .first()
      .click();
    await expect(dialogOf(w.page).getByRole('form', { name: 'Issue reward' })).toBeVisible();
  },
  step: async (w, event) => {
    if (await setNetwork(w, event)) return;
    if (await w.edge.settle(event)) return;
    const dialog = dialogOf(w.page);
    switch (event.type) {
      case 'issue.change': {
        const v = event.values as Record<string, string>;
        if (v.rewardType) await dialog.getByLabel('Reward type').selectOption(v.rewardType);
        if (v.issuedAmount !== undefined) await dialog.getByLabel('Issued amount (₦)').fill(v.issuedAmount);
        if (v.title !== undefined) await dialog.getByLabel('Title').fill(v.title);
        if (v.description !== undefined) await dialog.getByLabel('Description').fill(v.description);
        if (v.promotionalImage)
          await dialog
            .getByLabel('Promotional image')
            .setInputFiles({ name: 'promo.png', mimeType: 'image/png', buffer: PNG });
        return;
      }
      case 'issue.blur': {
        const field = dialog.getByLabel(event.field === 'title' ? 'Title' : String(event.field));
        await field.focus();
        return field.blur();
      }
      case 'issue.submit':
        // Enter on the focused button: the form scrolls inside the dialog, and a click aimed at a
        // button that an error message just moved can land on the dialog instead.
        return dialog.getByRole('button', { name: 'Submit' }).press('Enter');
      default:
        throw new Error(`no way to do ${event.type} in the browser`);
    }
  },
  check: async (w, s: AnyMachineSnapshot) => {
    const c = s.context as IssueRewardContext;
    const dialog = dialogOf(w.page);
    switch (String(s.value)) {
      case 'editing':
      case 'failure': {
        await expect(dialog.getByRole('form', { name: 'Issue reward' })).toBeVisible();
        // Client rules show under their fields; a field error the server sent shows in the alert
        // (and under its field until the field is touched again), so it is looked for anywhere.
        const clientErrors = validateIssueValues(c.values);
        for (const field of c.touched) {
          const message = c.errors[field];
          if (!message) continue;
          const exact = clientErrors[field] === message;
          await expect(dialog.getByText(message, { exact }).first()).toBeVisible();
        }
        return expectError(dialog, c.error);
      }
      case 'submitting':
        return expect(dialog.getByRole('status', { name: 'Issuing' })).toBeVisible();
      case 'success':
        await expect(w.page.getByText(rewardMessages.issued)).toBeVisible();
        await expect(w.page).toHaveURL(/\/dashboard\/eligibility$/);
        return expect(dialog).toHaveCount(0);
    }
    throw new Error(`no check for state ${JSON.stringify(s.value)}`);
  },
  after: async (w, s, sentBefore) => {
    if ((s.context as IssueRewardContext).error === rewardMessages.networkRequired)
      expect(w.edge.sent).toBe(sentBefore);
  },
};
