import { useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { lazy, Suspense, useEffect } from 'react';
import {
  type Partner,
  partnerInactiveMessages,
  partnerMessages,
  partnerServerMessages,
} from '../../../../../contract/partners';
import { css } from '../../../../../styled-system/css';
import {
  deletePartner,
  partnerDetailQueryOptions,
  partnerKeys,
  setPartnerStatus,
} from '../../../../api/partners';
import { profileQueryOptions } from '../../../../api/profile';
import { AccountStatusBadge } from '../../../../components/account-status-badge';
import { DetailCard, DetailList } from '../../../../components/detail-list';
import {
  AccountActions,
  DetailHeader,
  DetailImage,
  useAccountActions,
} from '../../../../components/detail-screen';
import { BuildingIcon } from '../../../../components/icons';
import { LogoSpinner } from '../../../../components/logo-spinner';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { PendingNotice } from '../../../../components/pending-mark';
import { QueuedDetailScreen } from '../../../../components/queued-detail-screen';
import { Badge } from '../../../../components/ui/badge';
import { Tabs } from '../../../../components/ui/tabs';
import { formatDate, formatNaira } from '../../../../lib/format';
import { applyTabChange } from '../../../../lib/list-search';
import { useCan, useOwnPartnerId } from '../../../../lib/use-can';
import type { PartnerDetailTab } from './partner-search';
import { ReviewRulesCard } from './review-rules-card';

/**
 * The tabs' screens load after the partner's page (issue 34): their lists, forms and dialogs are most
 * of the page's JavaScript, and the partner's details (a cashier's first screen after sign-in) need
 * none of it. The shown tab's file is fetched as it renders, the others once the page is on screen
 * (a tab opened later, even offline, is then at hand).
 */
const TAB_FILES = {
  visits: () => import('./partner-visits-tab'),
  rewards: () => import('./partner-rewards-tab'),
  eligible: () => import('./partner-eligible-tab'),
  analytics: () => import('./partner-analytics-tab'),
  integrations: () => import('./partner-integrations-tab'),
} satisfies Record<PartnerDetailTab, () => Promise<unknown>>;
const PartnerVisitsTab = lazy(() => TAB_FILES.visits().then((m) => ({ default: m.PartnerVisitsTab })));
const PartnerRewardsTab = lazy(() => TAB_FILES.rewards().then((m) => ({ default: m.PartnerRewardsTab })));
const PartnerEligibleTab = lazy(() => TAB_FILES.eligible().then((m) => ({ default: m.PartnerEligibleTab })));
const PartnerAnalyticsTab = lazy(() =>
  TAB_FILES.analytics().then((m) => ({ default: m.PartnerAnalyticsTab })),
);
const PartnerIntegrationsTab = lazy(() =>
  TAB_FILES.integrations().then((m) => ({ default: m.PartnerIntegrationsTab })),
);

const route = getRouteApi('/dashboard/partners/$partnerId/');

/**
 * /dashboard/partners/{id}: summary, Edit, Delete, Block/Unblock and the four tabs. For partner
 * staff it is their workspace (the route lets them open their own partner only); without
 * partners.view they see it through their profile's partner (name, and why it cannot transact).
 */
export function PartnerDetailScreen() {
  const { partnerId } = route.useParams();
  const can = useCan();
  const staff = useOwnPartnerId() !== null;
  return staff && !can('partners.view') ? (
    <PartnerWorkspace partnerId={partnerId} />
  ) : (
    <PartnerDetailPage partnerId={partnerId} />
  );
}

/** Partner staff's workspace: their partner's name, why it cannot transact (if so), and the tabs. */
function PartnerWorkspace({ partnerId }: { partnerId: number }) {
  const profile = useQuery(profileQueryOptions());
  const partner = profile.data?.partner;
  const inactive = partner && !partner.canTransact;
  return (
    <PageBody>
      <PageHeader
        title={partner?.organizationName ?? 'Your partner'}
        subtitle="Your partner: visits, rewards and eligible customers"
      />
      {inactive ? (
        <PartnerBlockedNotice reason={partner.inactiveReason ?? partnerInactiveMessages.BLOCKED} />
      ) : null}
      <PartnerTabs partnerId={partnerId} blocked={Boolean(inactive)} />
    </PageBody>
  );
}

function PartnerDetailPage({ partnerId }: { partnerId: number }) {
  const navigate = useNavigate();
  return (
    <QueuedDetailScreen
      entity="partner"
      options={partnerDetailQueryOptions(partnerId)}
      title="Partner"
      loadingLabel="Loading partner"
      onBack={() => void navigate({ to: '/dashboard/partners' })}
    >
      {(partner, queued) => <PartnerDetail partner={partner} queued={queued} />}
    </QueuedDetailScreen>
  );
}

function PartnerDetail({ partner, queued }: { partner: Partner; queued: string[] }) {
  const navigate = useNavigate();
  const can = useCan();
  // Partner staff see their own partner as their workspace: no partner management here (club scope).
  const staff = useOwnPartnerId() !== null;
  const toList = () => navigate({ to: '/dashboard/partners' });
  const { status, deletion } = useAccountActions({
    account: partner,
    setStatus: setPartnerStatus,
    remove: deletePartner,
    messages: { ...partnerServerMessages, deleteConfirm: <PartnerDeleteQuestion /> },
    keys: partnerKeys,
    toList,
  });

  return (
    <>
      {staff ? (
        <DetailHeader
          title={partner.organizationName}
          subtitle="Your partner: visits, rewards and eligible customers"
        />
      ) : (
        <DetailHeader
          title={partner.organizationName}
          subtitle="Partner details"
          onBack={() => void toList()}
        >
          <AccountActions
            status={status}
            canUpdate={can('partners.update')}
            canDelete={can('partners.delete')}
            onEdit={() =>
              void navigate({ to: '/dashboard/partners/$partnerId/edit', params: { partnerId: partner.id } })
            }
            onDelete={() => deletion.ask(partner)}
          />
        </DetailHeader>
      )}
      {staff && status.blocked ? <PartnerBlockedNotice reason={partnerInactiveMessages.BLOCKED} /> : null}
      <PendingNotice fields={queued} />
      <PartnerSummary partner={partner} />
      {staff ? null : (
        <div className={css({ mt: '6' })}>
          <ReviewRulesCard partner={partner} />
        </div>
      )}
      <div className={css({ mt: '8' })}>
        <PartnerTabs partnerId={partner.id} blocked={status.blocked} />
      </div>
      {deletion.dialog}
    </>
  );
}

/**
 * docs/product.md#screens's question, then what goes with the partner and what stays (issue 32
 * item 6): its staff accounts end with it (server/routes/partners.ts); its visits, rewards and log
 * entries stay, and its rewards still count in the club's reward figures (decision 004).
 */
export const PARTNER_DELETE_GOES =
  'Goes with it: the staff accounts of this partner. They can no longer sign in.';
export const PARTNER_DELETE_STAYS =
  "Stays: its visits, rewards and activity log entries. Its rewards still count in the club's reward totals on the dashboard.";

function PartnerDeleteQuestion() {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <p>{partnerMessages.deleteConfirm}</p>
      <p>{PARTNER_DELETE_GOES}</p>
      <p>{PARTNER_DELETE_STAYS}</p>
    </div>
  );
}

export function PartnerSummary({ partner }: { partner: Partner }) {
  return (
    <DetailCard label="Partner summary">
      <div
        className={css({
          display: 'grid',
          gap: '6',
          gridTemplateColumns: { base: '1fr', lg: '18rem 1fr' },
          alignItems: 'start',
        })}
      >
        <DetailImage
          src={partner.coverImage}
          alt={`${partner.organizationName} cover`}
          emptyLabel="No cover image"
          icon={<BuildingIcon size={48} />}
          shape="cover"
        />
        <DetailList
          items={[
            { label: 'First Name', value: partner.firstName },
            { label: 'Last Name', value: partner.lastName },
            { label: 'Organization', value: partner.organizationName },
            { label: 'Email', value: partner.email },
            { label: 'Phone', value: partner.phone },
            { label: 'Location', value: partner.address },
            { label: 'Minimum Spend To Qualify', value: formatNaira(partner.minSpendToQualify) },
            { label: 'Status', value: <AccountStatusBadge status={partner.accountStatus} /> },
            { label: 'Created', value: formatDate(partner.createdAt) },
            {
              label: 'Extended Services',
              value:
                partner.partnerExtendedServices.length > 0 ? (
                  <ul className={css({ display: 'flex', flexWrap: 'wrap', gap: '1.5' })}>
                    {partner.partnerExtendedServices.map((s) => (
                      <li key={s.id}>
                        <Badge tone="brand">{s.title}</Badge>
                      </li>
                    ))}
                  </ul>
                ) : (
                  '-'
                ),
            },
          ]}
        />
      </div>
    </DetailCard>
  );
}

const TAB_LABELS: Record<PartnerDetailTab, string> = {
  visits: 'Visits',
  rewards: 'Rewards',
  eligible: 'Eligible users',
  analytics: 'Analytics',
  integrations: 'Integrations',
};

/** What partner staff of a blocked partner see first: why nothing can be issued, redeemed or recorded. */
export function PartnerBlockedNotice({ reason }: { reason: string }) {
  return (
    <div
      role="alert"
      className={css({
        mb: '6',
        p: '4',
        borderRadius: 'lg',
        borderWidth: '1px',
        borderColor: 'border.error',
        bg: 'red.50',
        color: 'red.800',
        fontSize: 'sm',
      })}
    >
      <strong>{reason}</strong> Ask the club's administrators to unblock it; the history below stays readable.
    </div>
  );
}

function PartnerTabs({ partnerId, blocked }: { partnerId: number; blocked: boolean }) {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const can = useCan();
  const allowed: Record<PartnerDetailTab, boolean> = {
    visits: can('visits.view'),
    rewards: can('rewards.view'),
    eligible: can('visits.view'),
    // The partner's analytics are read with partners.view (partner staff without it: not offered).
    analytics: can('partners.view'),
    integrations: can('integrations.manage'),
  };
  const content: Record<PartnerDetailTab, React.ReactNode> = {
    visits: <PartnerVisitsTab partnerId={partnerId} blocked={blocked} />,
    rewards: <PartnerRewardsTab partnerId={partnerId} />,
    eligible: <PartnerEligibleTab partnerId={partnerId} />,
    analytics: <PartnerAnalyticsTab partnerId={partnerId} />,
    integrations: <PartnerIntegrationsTab partnerId={partnerId} />,
  };
  // The other tabs' files this person may open, once this page is on screen (see TAB_FILES).
  const offered = (Object.keys(TAB_FILES) as PartnerDetailTab[]).filter((tab) => allowed[tab]).join(',');
  useEffect(() => {
    for (const tab of offered.split(',').filter(Boolean))
      void TAB_FILES[tab as PartnerDetailTab]().catch(() => undefined);
  }, [offered]);
  const items = (Object.keys(TAB_LABELS) as PartnerDetailTab[])
    .filter((tab) => allowed[tab])
    .map((tab) => ({
      value: tab,
      label: TAB_LABELS[tab],
      content: (
        <Suspense fallback={<LogoSpinner label={`Loading ${TAB_LABELS[tab]}`} />}>{content[tab]}</Suspense>
      ),
    }));
  const active = items.some((t) => t.value === search.activeTab)
    ? search.activeTab
    : (items[0]?.value ?? 'analytics');

  return (
    <Tabs
      label="Partner activity"
      value={active}
      onValueChange={(activeTab) => void navigate({ search: (prev) => applyTabChange(prev, activeTab) })}
      items={items}
    />
  );
}
