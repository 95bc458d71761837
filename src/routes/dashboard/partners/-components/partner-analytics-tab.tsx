import { useQuery } from '@tanstack/react-query';
import { css } from '../../../../../styled-system/css';
import { partnerAnalyticsQueryOptions } from '../../../../api/partners';
import { partnerActivityQueryOptions } from '../../../../api/reward-activity';
import { ForbiddenState, isForbidden } from '../../../../components/forbidden-state';
import { LogoSpinner } from '../../../../components/logo-spinner';
import { QueryErrorText } from '../../../../components/query-error-text';
import { RewardActivityPanel } from '../../../../components/reward-activity/reward-activity-panel';
import { REWARD_CARDS, StatGrid } from '../../../../components/reward-stats-grid';

/**
 * The Analytics tab: the eleven reward figures of this partner (averages and rates to 2 decimals),
 * then its last 12 weeks of rewards and its outstanding gift-card balance (charts, decision 018).
 */
export function PartnerAnalyticsTab({ partnerId }: { partnerId: number }) {
  const stats = useQuery(partnerAnalyticsQueryOptions(partnerId));
  const activity = useQuery(partnerActivityQueryOptions(partnerId));
  if (stats.isPending) return <LogoSpinner label="Loading analytics" />;
  if (isForbidden(stats.error)) return <ForbiddenState />;
  if (stats.error) {
    return <QueryErrorText error={stats.error} />;
  }
  return (
    <section aria-label="Partner analytics">
      <StatGrid cards={REWARD_CARDS} stats={stats.data} />
      <div className={css({ mt: '8' })}>
        <RewardActivityPanel query={activity} />
      </div>
    </section>
  );
}
