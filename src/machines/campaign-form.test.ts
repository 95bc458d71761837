import { describe, expect, it } from 'vitest';
import { campaignMessages, createCampaignBodySchema, MAX_CAMPAIGN_LIST } from '../../contract/campaigns';
import { rewardMessages } from '../../contract/rewards';
import {
  type CampaignFormValues,
  initialCampaignValues,
  listEntries,
  toCampaignBody,
  validateCampaignValues,
} from './campaign-form';

/**
 * The New campaign form (docs/decisions/073-campaign-console.md): a name, the partner, the reward
 * template (the Issue Reward form's fields and rules, the image optional) and the segment
 * (contract/campaigns.ts). Expected values are written out from those rules.
 */

/** A form the rules accept: a gift card of the default amount for everyone eligible at partner 3. */
const valid: CampaignFormValues = {
  rewardType: 'GIFTCARD',
  rewardTypeCategory: '',
  issuedAmount: '2000',
  percentageDiscount: '10',
  expiryDate: '',
  promotionalImage: '',
  title: 'Thank you',
  description: 'A gift card for a year with us',
  name: 'December thank-you',
  partnerId: '3',
  segmentKind: 'eligible',
  status: '',
  visitedFrom: '',
  visitedTo: '',
  customerIds: '',
  emails: '',
  externalIds: '',
};
const filter = (more: Partial<CampaignFormValues>): CampaignFormValues => ({
  ...valid,
  segmentKind: 'filter',
  ...more,
});
const list = (more: Partial<CampaignFormValues>): CampaignFormValues => ({
  ...valid,
  segmentKind: 'list',
  ...more,
});
/** n distinct valid customer ids, one a line. */
const ids = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1)).join('\n');

/** The API takes the body as it is (the contract's own schema). */
const accepted = (body: unknown) => {
  const parsed = createCampaignBodySchema.safeParse(body);
  expect(parsed.error?.issues ?? []).toEqual([]);
  expect(parsed.success).toBe(true);
};

describe('initialCampaignValues', () => {
  it('starts empty, for everyone eligible, with the Issue Reward defaults (2,000 naira / 10 percent)', () => {
    const expected: CampaignFormValues = {
      rewardType: '',
      rewardTypeCategory: '',
      issuedAmount: '2000',
      percentageDiscount: '10',
      expiryDate: '',
      promotionalImage: '',
      title: '',
      description: '',
      name: '',
      partnerId: '',
      segmentKind: 'eligible',
      status: '',
      visitedFrom: '',
      visitedTo: '',
      customerIds: '',
      emails: '',
      externalIds: '',
    };
    expect(initialCampaignValues()).toEqual(expected);
    expect(initialCampaignValues('12')).toEqual({ ...expected, partnerId: '12' });
  });
});

describe('listEntries', () => {
  it('splits on new lines, commas, semicolons and spaces; drops blanks; keeps the order', () => {
    expect(listEntries('3\n1,2;5 4')).toEqual(['3', '1', '2', '5', '4']);
    expect(listEntries('  7 ,\n\n; 8;;,\t9\r\n ')).toEqual(['7', '8', '9']);
    expect(listEntries('a@b.ng, c@d.ng')).toEqual(['a@b.ng', 'c@d.ng']);
    expect(listEntries('ext-1')).toEqual(['ext-1']);
    expect(listEntries('')).toEqual([]);
    expect(listEntries(' \n,; ')).toEqual([]);
  });
});

describe('validateCampaignValues', () => {
  it('a campaign needs a name, a partner and the reward fields; the image is optional', () => {
    expect(validateCampaignValues(valid)).toEqual({});
    expect(validateCampaignValues(initialCampaignValues())).toEqual({
      name: 'Name is required',
      partnerId: 'Choose a partner',
      rewardType: rewardMessages.rewardTypeRequired,
      title: rewardMessages.titleRequired,
      description: rewardMessages.descriptionRequired,
    });
    expect(validateCampaignValues({ ...valid, promotionalImage: 'iVBOR' })).toEqual({});
  });

  it('a name of spaces only is missing; at most 120 characters once trimmed', () => {
    expect(validateCampaignValues({ ...valid, name: '   ' })).toEqual({ name: 'Name is required' });
    expect(validateCampaignValues({ ...valid, name: 'n'.repeat(120) })).toEqual({});
    expect(validateCampaignValues({ ...valid, name: `  ${'n'.repeat(120)}  ` })).toEqual({});
    expect(validateCampaignValues({ ...valid, name: 'n'.repeat(121) })).toEqual({
      name: 'Name must be at most 120 characters',
    });
  });

  it("the Issue Reward form's rules still apply to the reward", () => {
    expect(validateCampaignValues({ ...valid, title: ' ' })).toEqual({ title: rewardMessages.titleRequired });
    expect(validateCampaignValues({ ...valid, description: '' })).toEqual({
      description: rewardMessages.descriptionRequired,
    });
    expect(validateCampaignValues({ ...valid, rewardType: '' })).toEqual({
      rewardType: rewardMessages.rewardTypeRequired,
    });
    expect(validateCampaignValues({ ...valid, issuedAmount: '0' })).toEqual({
      issuedAmount: rewardMessages.issuedAmountPositive,
    });
    expect(validateCampaignValues({ ...valid, rewardType: 'COUPON', percentageDiscount: '101' })).toEqual({
      percentageDiscount: rewardMessages.percentageMax,
    });
  });

  it('filter: visited to before visited from is refused on visitedTo; equal or one-sided dates are fine', () => {
    expect(validateCampaignValues(filter({ visitedFrom: '2026-11-02', visitedTo: '2026-11-01' }))).toEqual({
      visitedTo: 'Visited to must be on or after visited from',
    });
    expect(validateCampaignValues(filter({ visitedFrom: '2026-11-01', visitedTo: '2026-11-01' }))).toEqual(
      {},
    );
    expect(validateCampaignValues(filter({ visitedFrom: '2026-11-01', visitedTo: '2026-11-30' }))).toEqual(
      {},
    );
    expect(validateCampaignValues(filter({ visitedFrom: '2026-11-02' }))).toEqual({});
    expect(validateCampaignValues(filter({ visitedTo: '2026-11-01' }))).toEqual({});
    expect(validateCampaignValues(filter({ status: 'ACTIVE' }))).toEqual({});
    // The dates are the filter's: another kind does not check them.
    for (const segmentKind of ['eligible', 'list'] as const)
      expect(
        validateCampaignValues({
          ...valid,
          segmentKind,
          customerIds: '5',
          visitedFrom: '2026-11-02',
          visitedTo: '2026-11-01',
        }),
      ).toEqual({});
  });

  it('list: a customer id is a whole number from 1 to 2,147,483,647 without a leading zero', () => {
    expect(validateCampaignValues(list({ customerIds: '1' }))).toEqual({});
    // The largest id the API takes (contract/ids.ts: PostgreSQL's integer), and one more.
    expect(validateCampaignValues(list({ customerIds: '2147483647' }))).toEqual({});
    for (const tooLarge of ['2147483648', '9999999999999999'])
      expect(validateCampaignValues(list({ customerIds: `5\n${tooLarge}` }))).toEqual({
        customerIds: `"${tooLarge}" is not a customer id (they go up to 2,147,483,647)`,
      });
    expect(validateCampaignValues(list({ customerIds: '10\n205, 3' }))).toEqual({});
    for (const bad of ['0', '012', '1.5', '-3', 'abc', '1e3', '7a', 'a7'])
      expect(validateCampaignValues(list({ customerIds: bad }))).toEqual({
        customerIds: `"${bad}" is not a customer id (a whole number)`,
      });
    // The first bad entry is named.
    expect(validateCampaignValues(list({ customerIds: '4\nabc\n0\n5' }))).toEqual({
      customerIds: '"abc" is not a customer id (a whole number)',
    });
  });

  it('list: emails must be addresses; an external id has at most 64 characters', () => {
    expect(validateCampaignValues(list({ emails: 'ada@example.ng\nbola@example.ng' }))).toEqual({});
    expect(validateCampaignValues(list({ emails: 'ada@example.ng, not-an-email, x@' }))).toEqual({
      emails: '"not-an-email" is not an email address',
    });
    expect(validateCampaignValues(list({ externalIds: `A-1\n${'x'.repeat(64)}` }))).toEqual({});
    expect(validateCampaignValues(list({ externalIds: `A-1\n${'x'.repeat(65)}` }))).toEqual({
      externalIds: 'An external id has at most 64 characters',
    });
    // Each box is checked on its own; a box's entry of another kind is its own kind's problem.
    expect(validateCampaignValues(list({ customerIds: 'ada@example.ng', emails: '12' }))).toEqual({
      customerIds: '"ada@example.ng" is not a customer id (a whole number)',
      emails: '"12" is not an email address',
    });
  });

  it('list: at least one entry; a bad customer id keeps its own message', () => {
    expect(validateCampaignValues(list({}))).toEqual({ customerIds: campaignMessages.listEmpty });
    expect(validateCampaignValues(list({ customerIds: ' \n, ' }))).toEqual({
      customerIds: campaignMessages.listEmpty,
    });
    expect(validateCampaignValues(list({ emails: 'ada@example.ng' }))).toEqual({});
    expect(validateCampaignValues(list({ externalIds: 'A-1' }))).toEqual({});
    // An email or an external id alone with a bad one: the list is not empty, only the bad entry counts.
    expect(validateCampaignValues(list({ emails: 'nope' }))).toEqual({
      emails: '"nope" is not an email address',
    });
  });

  it('list: at most MAX_CAMPAIGN_LIST entries across the three boxes', () => {
    expect(validateCampaignValues(list({ customerIds: ids(MAX_CAMPAIGN_LIST) }))).toEqual({});
    expect(validateCampaignValues(list({ customerIds: ids(MAX_CAMPAIGN_LIST + 1) }))).toEqual({
      customerIds: campaignMessages.listTooLong,
    });
    const split = { customerIds: ids(MAX_CAMPAIGN_LIST - 2), emails: 'ada@example.ng' };
    expect(validateCampaignValues(list({ ...split, externalIds: 'A-1' }))).toEqual({});
    expect(validateCampaignValues(list({ ...split, externalIds: 'A-1\nA-2' }))).toEqual({
      customerIds: campaignMessages.listTooLong,
    });
    expect(
      validateCampaignValues(
        list({ customerIds: '1', emails: 'ada@example.ng', externalIds: ids(MAX_CAMPAIGN_LIST - 1) }),
      ),
    ).toEqual({ customerIds: campaignMessages.listTooLong });
  });

  it('the list rules are for a list only', () => {
    for (const segmentKind of ['eligible', 'filter'] as const) {
      expect(validateCampaignValues({ ...valid, segmentKind })).toEqual({});
      expect(
        validateCampaignValues({
          ...valid,
          segmentKind,
          customerIds: 'abc',
          emails: 'nope',
          externalIds: 'x'.repeat(65),
        }),
      ).toEqual({});
    }
  });
});

describe('toCampaignBody', () => {
  it('eligible: the name trimmed, the partner as a number, the reward without a customer, status or image', () => {
    const body = toCampaignBody({ ...valid, name: '  December thank-you ', title: ' Thank you ' });
    expect(body).toEqual({
      name: 'December thank-you',
      partnerId: 3,
      reward: {
        rewardType: 'GIFTCARD',
        issuedAmount: 2000,
        title: 'Thank you',
        description: 'A gift card for a year with us',
      },
      segment: { kind: 'eligible' },
    });
    accepted(body);
  });

  it('a coupon with category, expiry and image sends them; only the chosen amount is sent', () => {
    const body = toCampaignBody({
      ...valid,
      rewardType: 'COUPON',
      rewardTypeCategory: 'DISCOUNTED_SUBSCRIPTION',
      percentageDiscount: '25',
      expiryDate: '2027-01-31',
      promotionalImage: 'iVBOR',
      partnerId: '12',
    });
    expect(body).toEqual({
      name: 'December thank-you',
      partnerId: 12,
      reward: {
        rewardType: 'COUPON',
        rewardTypeCategory: 'DISCOUNTED_SUBSCRIPTION',
        percentageDiscount: 25,
        expiryDate: '2027-01-31',
        promotionalImage: 'iVBOR',
        title: 'Thank you',
        description: 'A gift card for a year with us',
      },
      segment: { kind: 'eligible' },
    });
    accepted(body);
  });

  it('filter: only the fields given', () => {
    const reward = {
      rewardType: 'GIFTCARD',
      issuedAmount: 2000,
      title: 'Thank you',
      description: 'A gift card for a year with us',
    };
    const full = toCampaignBody(
      filter({ status: 'ACTIVE', visitedFrom: '2026-11-01', visitedTo: '2026-11-30' }),
    );
    expect(full).toEqual({
      name: 'December thank-you',
      partnerId: 3,
      reward,
      segment: { kind: 'filter', status: 'ACTIVE', visitedFrom: '2026-11-01', visitedTo: '2026-11-30' },
    });
    accepted(full);
    const none = toCampaignBody(filter({}));
    expect(none.segment).toEqual({ kind: 'filter' });
    accepted(none);
    const from = toCampaignBody(filter({ visitedFrom: '2026-11-01' }));
    expect(from.segment).toEqual({ kind: 'filter', visitedFrom: '2026-11-01' });
    accepted(from);
    const to = toCampaignBody(filter({ visitedTo: '2026-11-30' }));
    expect(to.segment).toEqual({ kind: 'filter', visitedTo: '2026-11-30' });
    accepted(to);
    const status = toCampaignBody(filter({ status: 'ACTIVE' }));
    expect(status.segment).toEqual({ kind: 'filter', status: 'ACTIVE' });
    accepted(status);
  });

  it('list: customer ids as numbers, in order; only the boxes that hold entries', () => {
    const all = toCampaignBody(
      list({
        customerIds: '12\n7, 2147483647',
        emails: 'ada@example.ng;bola@example.ng',
        externalIds: ' A-1 \nB-2',
      }),
    );
    expect(all.segment).toEqual({
      kind: 'list',
      customerIds: [12, 7, 2147483647],
      emails: ['ada@example.ng', 'bola@example.ng'],
      externalIds: ['A-1', 'B-2'],
    });
    accepted(all);
    const onlyIds = toCampaignBody(list({ customerIds: '5', emails: ' \n', externalIds: '' }));
    expect(onlyIds.segment).toEqual({ kind: 'list', customerIds: [5] });
    accepted(onlyIds);
    const onlyEmails = toCampaignBody(list({ emails: 'ada@example.ng' }));
    expect(onlyEmails.segment).toEqual({ kind: 'list', emails: ['ada@example.ng'] });
    accepted(onlyEmails);
    const onlyExternal = toCampaignBody(list({ externalIds: 'A-1' }));
    expect(onlyExternal.segment).toEqual({ kind: 'list', externalIds: ['A-1'] });
    accepted(onlyExternal);
  });
});
