import { useQuery } from '@tanstack/react-query';
import { useNavigate, useRouteContext } from '@tanstack/react-router';
import type { UserStats } from '../../../../contract/stats';
import { css } from '../../../../styled-system/css';
import { profileQueryOptions } from '../../../api/profile';
import { rewardActivityQueryOptions } from '../../../api/reward-activity';
import { rewardStatsQueryOptions, userStatsQueryOptions } from '../../../api/stats';
import { LogoSpinner } from '../../../components/logo-spinner';
import { useSignOut } from '../../../components/pending-changes';
import { QueryErrorText } from '../../../components/query-error-text';
import { RewardActivityPanel } from '../../../components/reward-activity/reward-activity-panel';
import { REWARD_CARDS, type StatCardDef } from '../../../components/reward-stats-grid';
import { StatCard } from '../../../components/stat-card';
import { TopBar } from '../../../components/top-bar';
import { formatCount, fullName } from '../../../lib/format';

/** Shown until the profile arrives. */
export const PLACEHOLDER_NAME = 'Admin User';

type Card<T> = StatCardDef<T>;

const USER_CARDS: Card<UserStats>[] = [
  { title: 'Total Partners', value: (s) => formatCount(s.totalPartners) },
  { title: 'Total Clients', value: (s) => formatCount(s.totalClients) },
  { title: 'Total Staff', value: (s) => formatCount(s.totalStaff) },
];

const gridClass = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', sm: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' },
  gap: '4',
});

/** What each section's figures count (issue 32 item 6: totals say what they count; decision 067). */
export const USERS_COUNT =
  'Accounts in use: active and blocked; deleted partners, customers and staff are not counted.';
export const REWARDS_COUNT =
  "Every reward the club's partners issued, those of deleted partners included (their rewards stay in the books).";

function StatsSection<T>({
  title,
  counts,
  cards,
  stats,
}: {
  title: string;
  /** What the figures count, said under the title. */
  counts: string;
  cards: Card<T>[];
  stats: T;
}) {
  return (
    <section
      aria-labelledby={`section-${title}`}
      aria-describedby={`section-${title}-counts`}
      className={css({ mb: '8' })}
    >
      <h2
        id={`section-${title}`}
        className={css({ fontSize: 'lg', fontWeight: 'semibold', color: 'fg.default' })}
      >
        {title}
      </h2>
      <p id={`section-${title}-counts`} className={css({ fontSize: 'sm', color: 'fg.muted', mb: '3' })}>
        {counts}
      </p>
      <div className={gridClass}>
        {cards.map((card) => (
          <StatCard key={card.title} title={card.title} value={card.value(stats)} />
        ))}
      </div>
    </section>
  );
}

export function DashboardHome() {
  const navigate = useNavigate();
  const { session } = useRouteContext({ from: '__root__' });
  // With unsent changes, signing out asks first (pending-changes.tsx).
  const signOut = useSignOut(() => session.send({ type: 'session.logout' }));
  const profile = useQuery(profileQueryOptions());
  const userStats = useQuery(userStatsQueryOptions());
  const rewardStats = useQuery(rewardStatsQueryOptions());
  const rewardActivity = useQuery(rewardActivityQueryOptions());
  const name = profile.data ? fullName(profile.data.firstName, profile.data.lastName) : PLACEHOLDER_NAME;
  const error = userStats.error ?? rewardStats.error;

  return (
    <>
      <TopBar
        name={name}
        imageUrl={profile.data?.imageUrl}
        onProfile={() => void navigate({ to: '/dashboard/profile' })}
        onLogout={signOut}
      />
      <div className={css({ px: { base: '4', md: '8' }, py: '6', maxW: '7xl' })}>
        {error ? <QueryErrorText error={error} look="banner" className={css({ mb: '6' })} /> : null}
        {userStats.isPending || rewardStats.isPending ? (
          error ? null : (
            <LogoSpinner label="Loading dashboard" />
          )
        ) : (
          <>
            {userStats.data ? (
              <StatsSection title="Users" counts={USERS_COUNT} cards={USER_CARDS} stats={userStats.data} />
            ) : null}
            {rewardStats.data ? (
              <StatsSection
                title="Reward"
                counts={REWARDS_COUNT}
                cards={REWARD_CARDS}
                stats={rewardStats.data}
              />
            ) : null}
            <RewardActivityPanel query={rewardActivity} />
          </>
        )}
      </div>
    </>
  );
}
