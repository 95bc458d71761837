import { useQuery } from '@tanstack/react-query';
import { css } from '../../../../../styled-system/css';
import { partnerAnalyticsQueryOptions } from '../../../../api/partners';
import { ForbiddenState, isForbidden } from '../../../../components/forbidden-state';
import { LogoSpinner } from '../../../../components/logo-spinner';
import { REWARD_CARDS, StatGrid } from '../../../../components/reward-stats-grid';
import { queryErrorMessage } from '../../../../lib/error-message';

/** The Analytics tab: the eleven reward figures of this partner (averages and rates to 2 decimals). */
export function PartnerAnalyticsTab({ partnerId }: { partnerId: number }) {
  const stats = useQuery(partnerAnalyticsQueryOptions(partnerId));
  if (stats.isPending) return <LogoSpinner label="Loading analytics" />;
  if (isForbidden(stats.error)) return <ForbiddenState />;
  if (stats.error) {
    return (
      <p role="alert" className={css({ color: 'red.700' })}>
        {queryErrorMessage(stats.error)}
      </p>
    );
  }
  return (
    <section aria-label="Partner analytics">
      <StatGrid cards={REWARD_CARDS} stats={stats.data} />
    </section>
  );
}
