import type { AnyMachineSnapshot } from 'xstate';
import { rewardMessages } from '../../../contract/rewards';
import { type IssueRewardContext, issueRewardMachine } from '../../../src/machines/issue-reward.machine';
import { validateIssueValues } from '../../../src/machines/issue-reward-form';
import type { FlowPath } from '../../model/flow-engine';
import { issueFieldError, issueRewardModel, TINY_PNG } from '../../model/flow-paths';
import { dialogOf, expect, expectError, type MachineWalk, setNetwork, type WalkContext } from '../walk-kit';

/**
 * The Issue Reward form walked in the browser: the run's eligible customer on the partner's
 * Eligible users tab, its 'Issue Reward to …' action, the form filled as the path says; the issue
 * call is held at the browser's edge until the path says how it ends.
 */

const PNG = Buffer.from(TINY_PNG, 'base64');

/**
 * The form as it opens, from the product's rules (docs/product.md#constants: a gift card's default
 * amount is 2,000 naira, a coupon's discount 10 percent; nothing chosen or typed), not from the
 * form's code: a wrong default is a failure of the walk.
 */
const SPEC_DEFAULTS = {
  rewardType: '',
  issuedAmount: '2000',
  percentageDiscount: '10',
  title: '',
  description: '',
};

/** The form's values after the path's steps so far: the defaults, then what the path typed. */
function typedValues(w: WalkContext): typeof SPEC_DEFAULTS & { promotionalImage?: string } {
  const path = w.data.path as FlowPath;
  let values: typeof SPEC_DEFAULTS & { promotionalImage?: string } = { ...SPEC_DEFAULTS };
  for (const step of path.steps.slice(0, Number(w.data.i)))
    if (step.event.type === 'issue.change')
      values = { ...values, ...(step.event as unknown as { values: Partial<typeof SPEC_DEFAULTS> }).values };
  return values;
}

type IssuedReward = {
  id: number;
  rewardType: string;
  issuedAmount: number | null;
  percentageDiscount: number | null;
  balance: number | null;
  title: string;
  description: string;
  status: string;
  issuedTo: number | null;
  partner: { id: number } | null;
};

/** The real server refuses the image: the held request goes with bytes that are not an image. */
const NOT_AN_IMAGE = Buffer.from('not an image, from the flow walk').toString('base64');

/** What the server said about the image, as the form must show it. */
interface ImageRefusal {
  /** Under the image field: the server's own words about it. */
  field: string;
  /** In the form's alert: the field errors as sentences (issue 16: sentences, never field names). */
  alert: string;
}

const asSentence = (text: string) => {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
};

/**
 * The model's refusal (issueFieldError) stands for the server's: the walk sends bytes that are not an
 * image and reads what the real server says (its words may differ from the model's placeholder).
 */
const fromModelRefusal = (text: string | null | undefined) =>
  Boolean(text?.startsWith(issueFieldError.errors[0]?.message ?? '\u0000'));

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
  // A gift card and a coupon each issued at the server.
  goals: (step) =>
    String(step.state.value) === 'success'
      ? [`issued ${(step.state.context as IssueRewardContext).values.rewardType}`]
      : [],
  begin: async (w, path) => {
    w.data.path = path;
    w.data.i = 0;
    await w.page.goto(`/dashboard/partners/${w.world.partner.id}?activeTab=eligible`);
    await w.page
      .getByRole('button', { name: `Issue Reward to ${w.world.customer.name}` })
      .first()
      .click();
    await expect(dialogOf(w.page).getByRole('form', { name: 'Issue reward' })).toBeVisible();
  },
  step: async (w, event) => {
    w.data.i = Number(w.data.i) + 1;
    if (await setNetwork(w, event)) return;
    if (event.type === 'xstate.error.actor.issueReward' && event.error === issueFieldError) {
      // The server's own image rule, walked for real.
      await w.edge.passEdited('issueReward', (body) => ({ ...body, promotionalImage: NOT_AN_IMAGE }));
      const answer = await w.edge.answerOf('issueReward');
      // docs/product.md#envelope and #data: bad input is a 400 with per-field errors; the server
      // checks an image's magic bytes.
      expect(answer?.status, 'the server refuses an image that is not one').toBe(400);
      const onImage = answer?.errors.filter((e) => e.fieldName === 'promotionalImage') ?? [];
      expect(onImage.length, 'the refusal names the promotionalImage field').toBeGreaterThan(0);
      w.data.imageRefusal = {
        field: onImage[0]?.message ?? '',
        alert: [...new Set(answer?.errors.map((e) => asSentence(e.message)))].join(' '),
      } satisfies ImageRefusal;
      return;
    }
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
        // The form shows what was typed over the product's defaults.
        const typed = typedValues(w);
        await expect(dialog.getByLabel('Reward type')).toHaveValue(typed.rewardType);
        await expect(dialog.getByLabel('Title')).toHaveValue(typed.title);
        await expect(dialog.getByLabel('Description')).toHaveValue(typed.description);
        if (typed.rewardType === 'GIFTCARD')
          await expect(dialog.getByLabel('Issued amount (₦)')).toHaveValue(typed.issuedAmount);
        if (typed.rewardType === 'COUPON')
          await expect(dialog.getByLabel('Percentage discount (%)')).toHaveValue(typed.percentageDiscount);
        // Client rules show under their fields; a field error the server sent shows in the alert
        // (and under its field until the field is touched again), so it is looked for anywhere.
        const clientErrors = validateIssueValues(c.values);
        for (const field of c.touched) {
          const message = c.errors[field];
          if (!message) continue;
          const exact = clientErrors[field] === message;
          const refusal = w.data.imageRefusal as ImageRefusal | undefined;
          const text = fromModelRefusal(message) && refusal ? refusal.field : message;
          await expect(dialog.getByText(text, { exact }).first()).toBeVisible();
        }
        const refusal = w.data.imageRefusal as ImageRefusal | undefined;
        return expectError(dialog, fromModelRefusal(c.error) && refusal ? refusal.alert : c.error);
      }
      case 'submitting':
        return expect(dialog.getByRole('status', { name: 'Issuing' })).toBeVisible();
      case 'success': {
        await expect(w.page.getByText(rewardMessages.issued)).toBeVisible();
        await expect(w.page).toHaveURL(/\/dashboard\/eligibility$/);
        await expect(dialog).toHaveCount(0);
        // The reward the server issued, read back through the API: what the path typed over the
        // product's defaults, to the customer at the run's partner, Active, its balance the amount.
        const issued = (await w.edge.answerOf('issueReward'))?.data as { id: number } | undefined;
        expect(issued?.id, 'the issued reward').toBeDefined();
        const { reward } = await w.api.call<{ reward: IssuedReward }>(
          'GET',
          `/partners/rewards/${issued?.id}/ledger`,
        );
        const typed = typedValues(w);
        const giftcard = typed.rewardType === 'GIFTCARD';
        return expect(reward).toMatchObject({
          rewardType: typed.rewardType,
          title: typed.title,
          description: typed.description,
          status: 'Active',
          issuedTo: w.world.customer.id,
          partner: { id: w.world.partner.id },
          issuedAmount: giftcard ? Number(typed.issuedAmount) : null,
          balance: giftcard ? Number(typed.issuedAmount) : null,
          percentageDiscount: giftcard ? null : Number(typed.percentageDiscount),
        });
      }
    }
    throw new Error(`no check for state ${JSON.stringify(s.value)}`);
  },
  after: async (w, s, sentBefore) => {
    if ((s.context as IssueRewardContext).error === rewardMessages.networkRequired)
      expect(w.edge.sent).toBe(sentBefore);
  },
};
