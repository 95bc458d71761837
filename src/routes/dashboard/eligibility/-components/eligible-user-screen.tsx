import { useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate, useRouter } from '@tanstack/react-router';
import type { EligibleUserDetail } from '../../../../../contract/visits';
import { css } from '../../../../../styled-system/css';
import { ApiError } from '../../../../api/client';
import { eligibleUserDetailQueryOptions } from '../../../../api/visits';
import { DetailCard, DetailList } from '../../../../components/detail-list';
import { EmptyState } from '../../../../components/empty-state';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { QueryBody } from '../../../../components/query-body';
import { Button } from '../../../../components/ui/button';
import {
  ReceiptImage,
  ReviewReasons,
  ReviewStateBadge,
  VisitItems,
} from '../../../../components/visit-parts';
import { formatDate, formatDateTime, formatNaira, fullName, todayIso } from '../../../../lib/format';
import { TEXTS } from '../../../../lib/texts';

const route = getRouteApi('/dashboard/eligibility/user/$userId');

/** docs/product.md#screens, word for word. */
export const NO_USER_DATA = TEXTS.spec.noUserData;
export const NO_VISIT_HISTORY = TEXTS.spec.noVisitHistory;

/** /dashboard/eligibility/user/{id}?partnerId=&date=: loads by id, so it works on a reload. */
export function EligibleUserScreen() {
  const { userId } = route.useParams();
  const { partnerId, date = todayIso() } = route.useSearch();
  const detail = useQuery({
    ...eligibleUserDetailQueryOptions(userId, partnerId ?? 0, date),
    enabled: Boolean(partnerId),
  });
  const router = useRouter();
  const navigate = useNavigate();
  const back = () => {
    if (router.history.canGoBack()) router.history.back();
    else if (partnerId)
      void navigate({
        to: '/dashboard/partners/$partnerId',
        params: { partnerId },
        search: { activeTab: 'eligible', date },
      });
    else void navigate({ to: '/dashboard/eligibility' });
  };
  const notFound = !partnerId || (detail.error instanceof ApiError && detail.error.status === 404);

  return (
    <PageBody>
      <PageHeader
        title="Eligible User"
        subtitle={`Eligibility on ${formatDate(date)}, from spend in the 30 days up to it`}
        actions={
          <Button variant="outline" onClick={back}>
            Back
          </Button>
        }
      />
      {notFound ? (
        <EligibleUserView detail={null} />
      ) : (
        <QueryBody query={detail} loadingLabel="Loading eligible user">
          {(data) => <EligibleUserView detail={data} />}
        </QueryBody>
      )}
    </PageBody>
  );
}

const sectionTitle = css({ fontSize: 'lg', fontWeight: 'semibold', mb: '3' });

/** The eligible user's figures and visit history; the spec's empty states when there is nothing. */
export function EligibleUserView({ detail }: { detail: EligibleUserDetail | null }) {
  if (!detail) return <EmptyState title={NO_USER_DATA} />;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <DetailCard label="Eligibility">
        <h2 className={sectionTitle}>{fullName(detail.user.firstName, detail.user.lastName)}</h2>
        <DetailList
          columns={3}
          items={[
            { label: 'Total Spent', value: formatNaira(detail.totalSpent) },
            { label: 'Eligible', value: detail.isEligible ? 'Yes' : 'No' },
            { label: 'Reward Type', value: detail.rewardType ?? '-' },
            { label: 'Message', value: detail.message },
          ]}
        />
      </DetailCard>
      <section aria-labelledby="visit-history-title">
        <h2 id="visit-history-title" className={sectionTitle}>
          Visit History
        </h2>
        {detail.visitHistory.length === 0 ? (
          <EmptyState title={NO_VISIT_HISTORY} />
        ) : (
          <ol className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
            {detail.visitHistory.map((visit) => (
              <li key={visit.id}>
                <DetailCard label={`Visit on ${formatDate(visit.visitDate)}`}>
                  <div
                    className={css({
                      display: 'grid',
                      gap: '5',
                      gridTemplateColumns: { base: '1fr', md: '1fr 1fr auto' },
                      alignItems: 'start',
                    })}
                  >
                    <DetailList
                      columns={1}
                      items={[
                        { label: 'Date', value: formatDateTime(visit.visitDate) },
                        { label: 'Total Amount', value: formatNaira(visit.totalAmount) },
                        { label: 'Attendant', value: visit.attendantName },
                        {
                          label: 'Counts',
                          value:
                            visit.review.state === 'approved' ? (
                              'Yes'
                            ) : (
                              <span>
                                <ReviewStateBadge review={visit.review} /> Not counted
                                <ReviewReasons review={visit.review} />
                              </span>
                            ),
                        },
                      ]}
                    />
                    <div>
                      <h3 className={css({ fontSize: 'sm', fontWeight: 'semibold', mb: '2' })}>Items</h3>
                      <VisitItems items={visit.visitItems} label="Purchased items" />
                    </div>
                    <ReceiptImage src={visit.imageUrl} />
                  </div>
                </DetailCard>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
