import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type Reward, rewardList } from '../../../../../contract/rewards';
import { css } from '../../../../../styled-system/css';
import { exportPartnerRewards, partnerRewardsQueryOptions } from '../../../../api/rewards';
import { type DataColumn, dataColumnHelper } from '../../../../components/data-table';
import { DetailCard } from '../../../../components/detail-list';
import { ListTable, useListChange } from '../../../../components/list-screen';
import { RewardLedgerPanel } from '../../../../components/rewards/reward-ledger';
import { Button } from '../../../../components/ui/button';
import { formatDate, formatNaira, fullName } from '../../../../lib/format';
import { withListSort } from '../../../../lib/list-search';
import { useCan } from '../../../../lib/use-can';
import { RedeemButton, RedeemRewardFlow } from './reward-actions';
import { RewardRequestsPanel } from './reward-requests-panel';

const route = getRouteApi('/dashboard/partners/$partnerId/');
const col = dataColumnHelper<Reward>();
const nowrap = css({ whiteSpace: 'nowrap' });
/** Long headers take two lines, so the whole table, actions included, fits at 1440 px (issue 16). */
const wrapHeader = css({ whiteSpace: 'normal' });

/** A dash for an empty figure (docs/product.md#screens: balance and percent discount). */
export const orDash = (value: number | null | undefined, format: (n: number) => string): string =>
  value === null || value === undefined ? '-' : format(value);

const CATEGORY_LABELS: Record<Reward['rewardTypeCategory'], string> = {
  GENERAL: 'General',
  DISCOUNTED_SUBSCRIPTION: 'Discounted Subscription',
};

const baseColumns: DataColumn<Reward>[] = col.columns([
  col.accessor((r) => fullName(r.user.firstName, r.user.lastName), {
    id: 'userName',
    header: 'User',
    enableSorting: true,
    // The code under the name: one customer's rewards are told apart at a glance (issue 32).
    cell: ({ getValue, row }) => (
      <span className={css({ display: 'flex', flexDirection: 'column' })}>
        <span>{getValue()}</span>
        <span className={css({ fontSize: 'xs', fontWeight: 'normal', color: 'fg.muted' })}>
          {row.original.code}
        </span>
      </span>
    ),
  }),
  col.accessor('rewardType', { header: 'Reward Type', enableSorting: true }),
  col.accessor('balance', {
    header: 'Balance',
    enableSorting: true,
    meta: { align: 'end' },
    cell: ({ getValue }) => <span className={nowrap}>{orDash(getValue(), formatNaira)}</span>,
  }),
  col.accessor('percentageDiscount', {
    header: 'Percent Discount',
    meta: { align: 'end', className: wrapHeader },
    cell: ({ getValue }) => orDash(getValue(), (n) => `${n}%`),
  }),
  col.accessor('expiryDate', {
    header: 'Reward Expiration',
    enableSorting: true,
    meta: { className: wrapHeader },
    cell: ({ getValue }) => <span className={nowrap}>{formatDate(getValue()) || '-'}</span>,
  }),
  col.accessor('rewardTypeCategory', {
    header: 'Reward Category',
    meta: { className: wrapHeader },
    cell: ({ row }) => CATEGORY_LABELS[row.original.rewardTypeCategory],
  }),
  col.accessor('status', { header: 'Status', enableSorting: true }),
]);

/** Only an Active reward can be redeemed (an Expired or Redeemed one is refused by the server). */
export const isRedeemable = (reward: Reward) => reward.status === 'Active';

/**
 * The Action column: 'History' (the reward's ledger, where a redemption can be reversed) on every
 * row, and with rewards.redeem 'Redeem' on an Active reward.
 */
const columnsWithActions = (
  onHistory: (reward: Reward) => void,
  onRedeem: ((reward: Reward) => void) | null,
): DataColumn<Reward>[] => [
  ...baseColumns,
  col.display({
    id: 'actions',
    header: 'Action',
    meta: { align: 'end', sticky: true },
    cell: ({ row }) => (
      <span className={css({ display: 'inline-flex', gap: '2', justifyContent: 'flex-end' })}>
        <Button
          size="sm"
          variant="ghost"
          aria-label={`History of ${row.original.code}`}
          onClick={() => onHistory(row.original)}
        >
          History
        </Button>
        {onRedeem && isRedeemable(row.original) ? (
          <RedeemButton code={row.original.code} onClick={() => onRedeem(row.original)} />
        ) : null}
      </span>
    ),
  }),
];

/**
 * The Rewards tab: the rewards this partner issued; paged. Every row opens the reward's history (its
 * ledger; with rewards.reverse a redemption can be reversed there). With rewards.redeem, an Active
 * reward has a 'Redeem' action: the OTP modal, then the Redeem modal (gift-card amount or coupon).
 */
export function PartnerRewardsTab({ partnerId }: { partnerId: number }) {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const can = useCan();
  const canRedeem = can('rewards.redeem');
  const [redeeming, setRedeeming] = useState<Reward | null>(null);
  const [showing, setShowing] = useState<Reward | null>(null);
  const closeRedeem = useCallback(() => setRedeeming(null), []);
  const columns = useMemo(() => columnsWithActions(setShowing, canRedeem ? setRedeeming : null), [canRedeem]);
  const historyRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (showing) historyRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [showing]);
  const state = withListSort(search, rewardList);
  const list = useQuery(partnerRewardsQueryOptions({ ...state, partnerId }));
  const onChange = useListChange(navigate);
  return (
    <>
      <RewardRequestsPanel partnerId={partnerId} />
      <ListTable
        label="Rewards"
        columns={columns}
        query={list}
        state={state}
        onChange={onChange}
        exportCsv={{
          download: (opts) => exportPartnerRewards({ ...state, partnerId }, opts),
          permission: ['rewards.view', 'rewards.redeem'],
        }}
      />
      {showing ? (
        <div ref={historyRef} className={css({ mt: '6' })}>
          <DetailCard label={`Reward ${showing.code}`}>
            <RewardLedgerPanel key={showing.id} rewardId={showing.id} />
            <div className={css({ display: 'flex', justifyContent: 'flex-end', mt: '4' })}>
              <Button size="sm" variant="outline" onClick={() => setShowing(null)}>
                Hide history
              </Button>
            </div>
          </DetailCard>
        </div>
      ) : null}
      <RedeemRewardFlow partnerId={partnerId} reward={redeeming} onClose={closeRedeem} />
    </>
  );
}
