import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { AccountStatus } from '../../../../../contract/list';
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
import { statsKeys } from '../../../../api/stats';
import { AccountStatusBadge } from '../../../../components/account-status-badge';
import { ConfirmDeletion } from '../../../../components/confirm-dialog';
import { DetailCard, DetailList } from '../../../../components/detail-list';
import { ForbiddenState, isForbidden } from '../../../../components/forbidden-state';
import { BuildingIcon } from '../../../../components/icons';
import { LogoSpinner } from '../../../../components/logo-spinner';
import { useQueuedOverlay } from '../../../../components/outbox-provider';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { PendingNotice } from '../../../../components/pending-mark';
import { Button } from '../../../../components/ui/button';
import { notify } from '../../../../components/ui/notify';
import { Tabs } from '../../../../components/ui/tabs';
import { errorSentence, queryErrorMessage } from '../../../../lib/error-message';
import { formatDate, formatNaira } from '../../../../lib/format';
import { applyTabChange } from '../../../../lib/list-search';
import { useCan, useOwnPartnerId } from '../../../../lib/use-can';
import { PartnerAnalyticsTab } from './partner-analytics-tab';
import { PartnerEligibleTab } from './partner-eligible-tab';
import { PartnerIntegrationsTab } from './partner-integrations-tab';
import { PartnerRewardsTab } from './partner-rewards-tab';
import type { PartnerDetailTab } from './partner-search';
import { PartnerVisitsTab } from './partner-visits-tab';

const route = getRouteApi('/dashboard/partners/$partnerId/');

export const PARTNER_DELETED = partnerServerMessages.deleted;
export const PARTNER_BLOCKED = partnerServerMessages.blocked;
export const PARTNER_UNBLOCKED = partnerServerMessages.unblocked;

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
  const overlay = useQueuedOverlay('partner');
  const partner = useQuery({ ...partnerDetailQueryOptions(partnerId), select: overlay.select });

  return (
    <PageBody>
      {partner.isPending ? (
        <LogoSpinner label="Loading partner" />
      ) : isForbidden(partner.error) ? (
        <ForbiddenState />
      ) : partner.error ? (
        <>
          <PageHeader
            title="Partner"
            actions={
              <Button variant="outline" onClick={() => void navigate({ to: '/dashboard/partners' })}>
                Back
              </Button>
            }
          />
          <p role="alert" className={css({ color: 'red.700' })}>
            {queryErrorMessage(partner.error)}
          </p>
        </>
      ) : (
        <PartnerDetail partner={partner.data} queued={overlay.fieldsOf(partner.data.id)} />
      )}
    </PageBody>
  );
}

function PartnerDetail({ partner, queued }: { partner: Partner; queued: string[] }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const can = useCan();
  // Partner staff see their own partner as their workspace: no partner management here (club scope).
  const staff = useOwnPartnerId() !== null;
  const [confirming, setConfirming] = useState(false);
  const toList = () => void navigate({ to: '/dashboard/partners' });

  const remove = useMutation({
    mutationFn: () => deletePartner(partner.id),
    onSuccess: async () => {
      setConfirming(false);
      notify.success(PARTNER_DELETED);
      // Leave the screen first, so nothing refetches the deleted partner.
      await navigate({ to: '/dashboard/partners' });
      queryClient.removeQueries({ queryKey: partnerKeys.detail(partner.id) });
      void queryClient.invalidateQueries({ queryKey: partnerKeys.all });
      void queryClient.invalidateQueries({ queryKey: statsKeys.all });
    },
    onError: (error) => {
      setConfirming(false);
      notify.error(errorSentence(error));
    },
  });
  const status = useMutation({
    mutationFn: (next: AccountStatus) => setPartnerStatus(partner.id, next),
    onSuccess: (_message, next) => {
      notify.success(next === 'BLOCKED' ? PARTNER_BLOCKED : PARTNER_UNBLOCKED);
      void queryClient.invalidateQueries({ queryKey: partnerKeys.all });
    },
    onError: (error) => notify.error(errorSentence(error)),
  });
  const blocked = partner.accountStatus === 'BLOCKED';

  return (
    <>
      <PageHeader
        title={partner.organizationName}
        subtitle={staff ? 'Your partner: visits, rewards and eligible customers' : 'Partner details'}
        actions={
          staff ? null : (
            <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', justifyContent: 'flex-end' })}>
              <Button variant="outline" onClick={toList}>
                Back
              </Button>
              {can('partners.update') ? (
                <>
                  <Button
                    variant="outline"
                    loading={status.isPending}
                    loadingText="Changing status"
                    onClick={() => status.mutate(blocked ? 'ACTIVE' : 'BLOCKED')}
                  >
                    {blocked ? 'Unblock' : 'Block'}
                  </Button>
                  <Button
                    variant="outline"
                    onClick={() =>
                      void navigate({
                        to: '/dashboard/partners/$partnerId/edit',
                        params: { partnerId: partner.id },
                      })
                    }
                  >
                    Edit
                  </Button>
                </>
              ) : null}
              {can('partners.delete') ? (
                <Button variant="danger" onClick={() => setConfirming(true)}>
                  Delete
                </Button>
              ) : null}
            </div>
          )
        }
      />
      {staff && blocked ? <PartnerBlockedNotice reason={partnerInactiveMessages.BLOCKED} /> : null}
      <PendingNotice fields={queued} />
      <PartnerSummary partner={partner} />
      <div className={css({ mt: '8' })}>
        <PartnerTabs partnerId={partner.id} blocked={blocked} />
      </div>
      <ConfirmDeletion
        open={confirming}
        onOpenChange={setConfirming}
        onConfirm={() => remove.mutate()}
        pending={remove.isPending}
      >
        {partnerMessages.deleteConfirm}
      </ConfirmDeletion>
    </>
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
        {partner.coverImage ? (
          <img
            src={partner.coverImage}
            alt={`${partner.organizationName} cover`}
            className={css({ w: 'full', aspectRatio: '4/3', objectFit: 'cover', borderRadius: 'lg' })}
          />
        ) : (
          <div
            role="img"
            aria-label="No cover image"
            className={css({
              w: 'full',
              aspectRatio: '4/3',
              borderRadius: 'lg',
              bg: 'bg.subtle',
              color: 'fg.subtle',
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
            })}
          >
            <BuildingIcon size={48} />
          </div>
        )}
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
                      <li
                        key={s.id}
                        className={css({
                          px: '2',
                          py: '0.5',
                          borderRadius: 'full',
                          bg: 'brand.50',
                          color: 'brand.800',
                          fontSize: 'xs',
                          fontWeight: 'medium',
                        })}
                      >
                        {s.title}
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
  const items = (Object.keys(TAB_LABELS) as PartnerDetailTab[])
    .filter((tab) => allowed[tab])
    .map((tab) => ({ value: tab, label: TAB_LABELS[tab], content: content[tab] }));
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
