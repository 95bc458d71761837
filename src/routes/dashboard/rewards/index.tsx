import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { css } from '../../../../styled-system/css';
import { giftcardBalanceQueryOptions, partnerRewardStatsQueryOptions } from '../../../api/rewards';
import { DetailCard } from '../../../components/detail-list';
import { RouteErrorState } from '../../../components/forbidden-state';
import { PageBody, PageHeader } from '../../../components/page-header';
import { REWARD_CARDS, StatGrid, statGrid } from '../../../components/reward-stats-grid';
import { screenGuard } from '../../../components/screens';
import { StatCard } from '../../../components/stat-card';
import { textLink } from '../../../components/ui/text-link';
import { formatNaira } from '../../../lib/format';
import { useCan } from '../../../lib/use-can';

export const Route = createFileRoute('/dashboard/rewards/')({
  beforeLoad: screenGuard('/dashboard/rewards/'),
  errorComponent: RouteErrorState,
  component: RewardsOverview,
});

const sectionTitle = css({ fontSize: 'md', fontWeight: 'semibold', mb: '3' });

/**
 * The destination after redeeming a reward (docs/product.md#states): the reward figures and the gift-card
 * money (redeemed, and still left on Active cards) in the user's scope (club-wide for admins, their
 * own partner for partner staff), a way to redeem another reward, and where the rewards are listed.
 */
function RewardsOverview() {
  const can = useCan();
  const stats = useQuery(partnerRewardStatsQueryOptions());
  const balance = useQuery(giftcardBalanceQueryOptions());
  return (
    <PageBody>
      <PageHeader title="Rewards" subtitle="Gift cards, coupons and discounted subscriptions" />
      {balance.data ? (
        <section aria-label="Gift-card balance" className={css({ mb: '6' })}>
          <h2 className={sectionTitle}>Gift-card balance</h2>
          <div className={statGrid}>
            <StatCard title="Redeemed From Gift Cards" value={formatNaira(balance.data.totalRedeemed)} />
            <StatCard
              title="Left On Active Gift Cards"
              value={formatNaira(balance.data.outstandingBalance)}
            />
          </div>
        </section>
      ) : null}
      {stats.data ? (
        <section aria-label="Reward figures" className={css({ mb: '6' })}>
          <h2 className={sectionTitle}>Reward figures</h2>
          <StatGrid cards={REWARD_CARDS} stats={stats.data} />
        </section>
      ) : null}
      <DetailCard label="About rewards">
        <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '4', maxW: '2xl' })}>
          Each partner's rewards, with balances, discounts, expiry and status, are on the partner's Rewards
          tab, where an Active reward can be redeemed with the customer's code.
        </p>
        <div className={css({ display: 'flex', gap: '6', flexWrap: 'wrap' })}>
          {can('rewards.redeem') ? (
            <Link to="/dashboard/redeem" className={textLink}>
              Redeem Reward
            </Link>
          ) : null}
          {can('partners.view') ? (
            <Link to="/dashboard/partners" className={textLink}>
              Go to partners
            </Link>
          ) : null}
        </div>
      </DetailCard>
    </PageBody>
  );
}
