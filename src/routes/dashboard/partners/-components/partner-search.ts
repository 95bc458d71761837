import type { AccountStatus } from '../../../../../contract/list';
import { partnerList } from '../../../../../contract/partners';
import { rewardList } from '../../../../../contract/rewards';
import { eligibleList, visitList } from '../../../../../contract/visits';
import { z } from '../../../../../contract/zod';
import { listSearchDefaults, tabbedListSearchSchema } from '../../../../lib/list-search';

/** docs/product.md#screens: tabs Active Partners (ACTIVE) and Blocked Partners (BLOCKED). */
export const PARTNER_TABS = ['active', 'blocked'] as const;
export type PartnerTab = (typeof PARTNER_TABS)[number];
export const statusOfTab = (tab: PartnerTab): AccountStatus => (tab === 'blocked' ? 'BLOCKED' : 'ACTIVE');

/** /dashboard/partners?activeTab=active|blocked&page=&pageSize=&search=&sortBy=&sortOrder= */
export const partnerSearchSchema = tabbedListSearchSchema({ ...partnerList, tabs: PARTNER_TABS });
export const PARTNER_LIST_DEFAULTS = listSearchDefaults(partnerSearchSchema);

/** The tabs of the partner detail (Integrations: its API keys, integrations.manage). */
export const PARTNER_DETAIL_TABS = ['visits', 'rewards', 'eligible', 'analytics', 'integrations'] as const;
export type PartnerDetailTab = (typeof PARTNER_DETAIL_TABS)[number];

/** The detail's tabs share one URL: each tab's list takes its own keys (withListSort). */
const detailSortKeys = [
  ...new Set([...visitList.sortKeys, ...rewardList.sortKeys, ...eligibleList.sortKeys]),
] as [string, ...string[]];

/**
 * /dashboard/partners/{id}?activeTab=visits|rewards|eligible|analytics&page=&pageSize=&sortBy=
 * &sortOrder=&date=YYYY-MM-DD. The list state belongs to the active tab (a tab change resets it);
 * `date` is the Eligible users date, today when absent.
 */
export const partnerDetailSearchSchema = z.extend(
  tabbedListSearchSchema({ tabs: PARTNER_DETAIL_TABS, sortKeys: detailSortKeys }),
  { date: z.catch(z.optional(z.iso.date()), undefined) },
);

export const PARTNER_DETAIL_DEFAULTS = { activeTab: 'visits', page: 1, pageSize: 10, search: '' } as const;
