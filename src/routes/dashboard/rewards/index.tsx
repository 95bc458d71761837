import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { css } from '../../../../styled-system/css';
import { rewardStatsQueryOptions } from '../../../api/stats';
import { DetailCard } from '../../../components/detail-list';
import { RouteErrorState } from '../../../components/forbidden-state';
import { PageBody, PageHeader } from '../../../components/page-header';
import { REWARD_CARDS, StatGrid } from '../../../components/reward-stats-grid';
import { requirePermission, useCan } from '../../../lib/use-can';

export const Route = createFileRoute('/dashboard/rewards/')({
  beforeLoad: requirePermission('rewards.view'),
  errorComponent: RouteErrorState,
  component: RewardsOverview,
});

/** The destination after redeeming a reward: the club's reward figures and where to find more. */
function RewardsOverview() {
  const can = useCan();
  const stats = useQuery({ ...rewardStatsQueryOptions(), enabled: can('dashboard.view') });
  return (
    <PageBody>
      <PageHeader title="Rewards" subtitle="Gift cards, coupons and discounted subscriptions" />
      {stats.data ? (
        <div className={css({ mb: '6' })}>
          <StatGrid cards={REWARD_CARDS} stats={stats.data} />
        </div>
      ) : null}
      <DetailCard label="About rewards">
        <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '4', maxW: '2xl' })}>
          Each partner's rewards, with balances, discounts, expiry and status, are on the partner's Rewards
          tab.
        </p>
        <Link
          to="/dashboard/partners"
          className={css({
            color: 'brand.700',
            fontWeight: 'semibold',
            _hover: { textDecoration: 'underline' },
          })}
        >
          Go to partners
        </Link>
      </DetailCard>
    </PageBody>
  );
}
