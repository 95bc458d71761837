import type { CampaignSegment, createCampaignBodySchema } from '../../contract/campaigns';
import { campaignMessages, MAX_CAMPAIGN_LIST } from '../../contract/campaigns';
import { MAX_ID } from '../../contract/ids';
import type { AccountStatus } from '../../contract/list';
import { emailField } from '../../contract/validation';
import type { z } from '../../contract/zod';
import {
  type IssueValues,
  initialIssueValues,
  toIssueRewardBody,
  validateIssueValues,
} from './issue-reward-form';

export type CreateCampaignBody = z.output<typeof createCampaignBodySchema>;

/**
 * The New campaign form (issue 35, decision 073): a name, the partner, the reward template (the
 * Issue Reward form's fields and rules, src/machines/issue-reward-form.ts, but the image is
 * optional) and the segment. Values are kept as typed; `toCampaignBody` makes the body of
 * POST /admin/campaigns.
 */

export type SegmentKind = CampaignSegment['kind'];

export interface CampaignFormValues extends IssueValues {
  name: string;
  /** The partner's id as the select holds it ('' until chosen). */
  partnerId: string;
  segmentKind: SegmentKind;
  /** Filter: '' for any status. */
  status: '' | AccountStatus;
  visitedFrom: string;
  visitedTo: string;
  /** List: one entry a line (commas and spaces separate too). */
  customerIds: string;
  emails: string;
  externalIds: string;
}
export type CampaignField = keyof CampaignFormValues;
export type CampaignErrors = Partial<Record<CampaignField, string>>;

export const initialCampaignValues = (partnerId = ''): CampaignFormValues => ({
  ...initialIssueValues(),
  name: '',
  partnerId,
  segmentKind: 'eligible',
  status: '',
  visitedFrom: '',
  visitedTo: '',
  customerIds: '',
  emails: '',
  externalIds: '',
});

/** The entries of a pasted list: split on new lines, commas, semicolons and spaces; blanks dropped. */
export const listEntries = (text: string): string[] =>
  text
    .split(/[\s,;]+/)
    .map((t) => t.trim())
    .filter(Boolean);

const isEmail = (text: string) => emailField.safeParse(text).success;

/** Every rule of the form, each message on its field. */
export function validateCampaignValues(values: CampaignFormValues): CampaignErrors {
  const errors: CampaignErrors = { ...validateIssueValues(values) };
  // A campaign's image is optional (one reward's is required).
  delete errors.promotionalImage;
  if (!values.name.trim()) errors.name = 'Name is required';
  else if (values.name.trim().length > 120) errors.name = 'Name must be at most 120 characters';
  if (!values.partnerId) errors.partnerId = 'Choose a partner';
  if (values.segmentKind === 'filter' && values.visitedFrom && values.visitedTo) {
    if (values.visitedFrom > values.visitedTo)
      errors.visitedTo = 'Visited to must be on or after visited from';
  }
  if (values.segmentKind === 'list') {
    const ids = listEntries(values.customerIds);
    const emails = listEntries(values.emails);
    const externals = listEntries(values.externalIds);
    const bad = ids.find((id) => !/^[1-9]\d*$/.test(id));
    // The API's ids end at MAX_ID (contract/ids.ts): a larger one is refused here, not by the server.
    const tooLarge = ids.find((id) => Number(id) > MAX_ID);
    if (bad) errors.customerIds = `"${bad}" is not a customer id (a whole number)`;
    else if (tooLarge)
      errors.customerIds = `"${tooLarge}" is not a customer id (they go up to ${MAX_ID.toLocaleString('en-US')})`;
    const badEmail = emails.find((e) => !isEmail(e));
    if (badEmail) errors.emails = `"${badEmail}" is not an email address`;
    const longId = externals.find((e) => e.length > 64);
    if (longId) errors.externalIds = 'An external id has at most 64 characters';
    const all = ids.length + emails.length + externals.length;
    if (all === 0 && !errors.customerIds) errors.customerIds = campaignMessages.listEmpty;
    if (all > MAX_CAMPAIGN_LIST) errors.customerIds = campaignMessages.listTooLong;
  }
  return errors;
}

function segmentOf(values: CampaignFormValues): CampaignSegment {
  switch (values.segmentKind) {
    case 'eligible':
      return { kind: 'eligible' };
    case 'filter':
      return {
        kind: 'filter',
        ...(values.status ? { status: values.status } : {}),
        ...(values.visitedFrom ? { visitedFrom: values.visitedFrom } : {}),
        ...(values.visitedTo ? { visitedTo: values.visitedTo } : {}),
      };
    case 'list': {
      const ids = listEntries(values.customerIds).map(Number);
      const emails = listEntries(values.emails);
      const externalIds = listEntries(values.externalIds);
      return {
        kind: 'list',
        ...(ids.length ? { customerIds: ids } : {}),
        ...(emails.length ? { emails } : {}),
        ...(externalIds.length ? { externalIds } : {}),
      };
    }
  }
}

/** The body of POST /admin/campaigns: the reward as the Issue Reward form sends it, without a customer. */
export function toCampaignBody(values: CampaignFormValues): CreateCampaignBody {
  const {
    issuedTo: _to,
    partnerId: _p,
    byPoints: _b,
    status: _s,
    promotionalImage,
    ...reward
  } = toIssueRewardBody(values, { issuedTo: 0 });
  return {
    name: values.name.trim(),
    partnerId: Number(values.partnerId),
    reward: { ...reward, ...(promotionalImage ? { promotionalImage } : {}) },
    segment: segmentOf(values),
  };
}
