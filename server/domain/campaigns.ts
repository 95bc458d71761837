import { type SQL, sql } from 'drizzle-orm';
import {
  type ApprovalSettings,
  type ApprovalSettingsBody,
  type CampaignPreview,
  type CampaignSegment,
  DEFAULT_APPROVAL_EXPIRY_DAYS,
  PREVIEW_SKIPPED_SHOWN,
  SKIP_REASONS,
  type SkipReason,
} from '../../contract/campaigns';
import { formatNaira } from '../../contract/money';
import type { DbOrTx } from '../db/client';
import { executeRows } from '../db/rows';
import { appSettings } from '../db/schema';
import { eligibilityWindow, lagosDate, lagosDayStart, toKobo } from './eligibility';

/*
 * Campaign segments and four eyes (issue 35, docs/decisions/070): which customers a segment names,
 * who of them is skipped and why, and whether a campaign waits for a second person. Plain SQL builders
 * and functions; no HTTP.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a segment is evaluated against. */
export type SegmentContext = {
  campaignId: number;
  partnerId: number;
  minSpendToQualify: number;
  segment: CampaignSegment;
  now: Date;
};

const jsonList = (values: readonly (string | number)[] | undefined) => JSON.stringify(values ?? []);

/** A customer row a segment may name: live, or erased (a tombstone, skipped as 'erased'). */
const namable = sql`(c.deleted_at is null or c.erased_at is not null)`;

/**
 * The customers a segment names (`candidates(customer_id)`), before the skip rules:
 * - eligible: the partner's eligible customers today (the eligibility rule, server/domain/eligibility.ts:
 *   spend at the partner in the 30 Lagos days up to today at least its minSpendToQualify);
 * - filter: the customers with a visit at the partner in [visitedFrom, visitedTo] (Lagos days) when
 *   a period is given, else the customers linked to the partner; `status` keeps those with it;
 * - list: the customers the ids, emails (any case) and external ids name.
 * Deleted customers are not named (an erased one is: it is skipped with its reason).
 */
export function candidatesSql(x: SegmentContext): SQL {
  const s = x.segment;
  if (s.kind === 'eligible') {
    const w = eligibilityWindow(lagosDate(x.now));
    return sql`select v.customer_id from visits v
      where v.partner_id = ${x.partnerId} and v.visit_date >= ${w.start.toISOString()}::timestamptz
        and v.visit_date < ${w.endExclusive.toISOString()}::timestamptz and v.review_state = 'approved'
      group by v.customer_id having sum(v.total_amount) >= ${x.minSpendToQualify}::numeric`;
  }
  if (s.kind === 'filter') {
    const from = s.visitedFrom ? lagosDayStart(s.visitedFrom) : null;
    const to = s.visitedTo ? new Date(lagosDayStart(s.visitedTo).getTime() + DAY_MS) : null;
    const base =
      from || to
        ? sql`select distinct v.customer_id from visits v where v.partner_id = ${x.partnerId}
            ${from ? sql`and v.visit_date >= ${from.toISOString()}::timestamptz` : sql``}
            ${to ? sql`and v.visit_date < ${to.toISOString()}::timestamptz` : sql``}`
        : sql`select l.customer_id from customer_links l where l.partner_id = ${x.partnerId} and l.state = 'CONFIRMED'`;
    if (!s.status) return base;
    return sql`select b.customer_id from (${base}) b join customers c on c.id = b.customer_id
      where c.account_status = ${s.status}`;
  }
  return sql`select c.id as customer_id from customers c
      where c.id in (select value::int from jsonb_array_elements_text(${jsonList(s.customerIds)}::jsonb))
    union
    select c.id from customers c
      where lower(c.email) in (select lower(value) from jsonb_array_elements_text(${jsonList(s.emails)}::jsonb))
    union
    select c.id from customers c
      where c.external_id in (select value from jsonb_array_elements_text(${jsonList(s.externalIds)}::jsonb))`;
}

/**
 * The skip rule of one customer, in this order: erased, blocked, not linked to the partner (consent,
 * decision 053: a partner reaches only customers who confirmed a link), already holds this campaign's
 * reward. null: to reward.
 */
export const skipReasonSql = (partnerId: number, campaignId: number) => sql`case
    when c.erased_at is not null then 'erased'
    when c.account_status <> 'ACTIVE' then 'blocked'
    when not exists (select 1 from customer_links l where l.customer_id = c.id and l.partner_id = ${partnerId} and l.state = 'CONFIRMED') then 'not_linked'
    when exists (select 1 from rewards r where r.campaign_id = ${campaignId} and r.customer_id = c.id) then 'already_rewarded'
  end`;

/** `classified(customer_id, reason)`: every customer the segment names with its skip reason (or null). */
export const classifiedSql = (x: SegmentContext): SQL => sql`with candidates as (${candidatesSql(x)}),
  classified as (
    select c.id as customer_id, ${skipReasonSql(x.partnerId, x.campaignId)} as reason
    from candidates k join customers c on c.id = k.customer_id
    where ${namable}
  )`;

/** List entries that name no customer (a deleted one counts as none), as sent. */
export async function unknownListEntries(db: DbOrTx, segment: CampaignSegment): Promise<string[]> {
  if (segment.kind !== 'list') return [];
  const rows = await executeRows<{ ref: string }>(
    db,
    sql`select value as ref from jsonb_array_elements_text(${jsonList(segment.customerIds)}::jsonb) e
        where not exists (select 1 from customers c where c.id = e.value::int and ${namable})
      union all
      select value from jsonb_array_elements_text(${jsonList(segment.emails)}::jsonb) e
        where not exists (select 1 from customers c where lower(c.email) = lower(e.value) and ${namable})
      union all
      select value from jsonb_array_elements_text(${jsonList(segment.externalIds)}::jsonb) e
        where not exists (select 1 from customers c where c.external_id = e.value and ${namable})`,
  );
  // The same entry sent twice is one unknown entry.
  return [...new Set(rows.map((r) => r.ref))];
}

export type SegmentFigures = {
  count: number;
  skipped: CampaignPreview['skipped'];
};

/** Who of a segment would be rewarded and who skipped, with the reasons (no write). */
export async function segmentFigures(db: DbOrTx, x: SegmentContext): Promise<SegmentFigures> {
  const counts = await executeRows<{ reason: SkipReason | null; n: number }>(
    db,
    sql`${classifiedSql(x)} select reason, count(*)::int as n from classified group by reason`,
  );
  const shown = await executeRows<{ customer_id: number; reason: SkipReason }>(
    db,
    sql`${classifiedSql(x)} select customer_id, reason from classified where reason is not null
        order by customer_id limit ${PREVIEW_SKIPPED_SHOWN}`,
  );
  const unknown = await unknownListEntries(db, x.segment);
  const byReason = Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as Record<SkipReason, number>;
  let count = 0;
  for (const row of counts) {
    if (row.reason === null) count = Number(row.n);
    else byReason[row.reason] = Number(row.n);
  }
  byReason.not_found = unknown.length;
  const customers = [
    ...shown.map((s) => ({ customerId: Number(s.customer_id), ref: null, reason: s.reason })),
    ...unknown.map((ref) => ({ customerId: null, ref, reason: 'not_found' as const })),
  ].slice(0, PREVIEW_SKIPPED_SHOWN);
  const skippedCount = Object.values(byReason).reduce((a, b) => a + b, 0);
  return { count, skipped: { count: skippedCount, byReason, customers } };
}

/** Naira face value of `count` rewards: a gift card's amount each; a coupon has none (0). */
export const faceValue = (count: number, issuedAmount: number | null): number =>
  issuedAmount === null ? 0 : toKobo(issuedAmount * count) / 100;

// ---------------------------------------------------------------------------------------------
// Four eyes

const CAMPAIGN_TOTAL_KEY = 'approval_campaign_total_above';
const SINGLE_REWARD_KEY = 'approval_single_reward_above';
const EXPIRY_DAYS_KEY = 'approval_expiry_days';

/**
 * The club's thresholds (naira; null: none) and the days a request waits before it expires
 * (DEFAULT_APPROVAL_EXPIRY_DAYS unless set). Nothing set: nothing waits.
 */
export async function approvalSettings(db: DbOrTx): Promise<ApprovalSettings> {
  const rows = await db.select().from(appSettings);
  const value = (key: string) => {
    const v = rows.find((r) => r.key === key)?.value;
    return v === undefined || v === '' ? null : Number(v);
  };
  return {
    campaignTotalAbove: value(CAMPAIGN_TOTAL_KEY),
    singleRewardAbove: value(SINGLE_REWARD_KEY),
    approvalExpiryDays: value(EXPIRY_DAYS_KEY) ?? DEFAULT_APPROVAL_EXPIRY_DAYS,
  };
}

/** Saves the thresholds, and the expiry days when given (absent: unchanged). */
export async function saveApprovalSettings(db: DbOrTx, s: ApprovalSettingsBody): Promise<void> {
  const pairs: [string, string][] = [
    [CAMPAIGN_TOTAL_KEY, s.campaignTotalAbove === null ? '' : s.campaignTotalAbove.toFixed(2)],
    [SINGLE_REWARD_KEY, s.singleRewardAbove === null ? '' : s.singleRewardAbove.toFixed(2)],
  ];
  if (s.approvalExpiryDays !== undefined) pairs.push([EXPIRY_DAYS_KEY, String(s.approvalExpiryDays)]);
  for (const [key, text] of pairs) {
    await db
      .insert(appSettings)
      .values({ key, value: text })
      .onConflictDoUpdate({ target: appSettings.key, set: { value: text } });
  }
}

/**
 * Why a campaign waits for a second person (empty: it does not). Strictly above a threshold: a
 * campaign's total face value above campaignTotalAbove, or its one reward's amount above
 * singleRewardAbove. Compared in kobo.
 */
export function approvalReasons(
  s: Pick<ApprovalSettings, 'campaignTotalAbove' | 'singleRewardAbove'>,
  figures: { totalValue: number; issuedAmount: number | null },
): string[] {
  const reasons: string[] = [];
  if (s.campaignTotalAbove !== null && toKobo(figures.totalValue) > toKobo(s.campaignTotalAbove))
    reasons.push(
      `Total ${formatNaira(figures.totalValue)} is above the ${formatNaira(s.campaignTotalAbove)} that needs a second person`,
    );
  if (
    s.singleRewardAbove !== null &&
    figures.issuedAmount !== null &&
    toKobo(figures.issuedAmount) > toKobo(s.singleRewardAbove)
  )
    reasons.push(
      `Each reward of ${formatNaira(figures.issuedAmount)} is above the ${formatNaira(s.singleRewardAbove)} that needs a second person`,
    );
  return reasons;
}
