import { useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate, useRouter } from '@tanstack/react-router';
import type { Visit } from '../../../../../contract/visits';
import { css } from '../../../../../styled-system/css';
import { visitDetailQueryOptions } from '../../../../api/visits';
import { DetailCard, DetailList } from '../../../../components/detail-list';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { QueryBody } from '../../../../components/query-body';
import { Button } from '../../../../components/ui/button';
import {
  ReceiptImage,
  ReviewReasons,
  ReviewStateBadge,
  VisitItems,
} from '../../../../components/visit-parts';
import { formatDateTime, formatNaira } from '../../../../lib/format';

const route = getRouteApi('/dashboard/visits/$visitId');

/** /dashboard/visits/{id}: loads the visit by id, so it works opened directly or reloaded. */
export function VisitDetailScreen() {
  const { visitId } = route.useParams();
  const visit = useQuery(visitDetailQueryOptions(visitId));
  const router = useRouter();
  const navigate = useNavigate();
  const back = () => {
    if (router.history.canGoBack()) router.history.back();
    else if (visit.data)
      void navigate({
        to: '/dashboard/partners/$partnerId',
        params: { partnerId: visit.data.partner.id },
        search: { activeTab: 'visits' },
      });
    else void navigate({ to: '/dashboard/partners' });
  };

  return (
    <PageBody>
      <PageHeader
        title="Visit Details"
        actions={
          <Button variant="outline" onClick={back}>
            Back
          </Button>
        }
      />
      <QueryBody query={visit} loadingLabel="Loading visit">
        {(data) => <VisitDetailView visit={data} />}
      </QueryBody>
    </PageBody>
  );
}

const sectionTitle = css({ fontSize: 'md', fontWeight: 'semibold', mb: '3' });

export function VisitDetailView({ visit }: { visit: Visit }) {
  return (
    <div className={css({ display: 'grid', gap: '6', gridTemplateColumns: { base: '1fr', lg: '2fr 1fr' } })}>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
        <DetailCard label="Visit summary">
          <DetailList
            items={[
              { label: 'First Name', value: visit.user.firstName },
              { label: 'Last Name', value: visit.user.lastName },
              { label: 'Attendant', value: visit.attendantName },
              { label: 'Visit Date', value: formatDateTime(visit.visitDate) },
              { label: 'Total Spent', value: formatNaira(visit.totalAmount) },
              { label: 'Organization', value: visit.partner.organizationName },
              { label: 'Review', value: <ReviewStateBadge review={visit.review} /> },
              ...(visit.review.flags.length > 0 || visit.review.reason
                ? [{ label: 'Review reasons', value: <ReviewReasons review={visit.review} /> }]
                : []),
              ...(visit.review.reviewedBy
                ? [
                    {
                      label: 'Reviewed',
                      value: `${visit.review.reviewedBy.name}${visit.review.reviewedAt ? `, ${formatDateTime(visit.review.reviewedAt)}` : ''}`,
                    },
                  ]
                : []),
            ]}
          />
        </DetailCard>
        <DetailCard label="Items bought">
          <h2 className={sectionTitle}>Items Bought</h2>
          <VisitItems items={visit.visitItems} />
        </DetailCard>
      </div>
      <DetailCard label="Receipt">
        <h2 className={sectionTitle}>Receipt</h2>
        <ReceiptImage src={visit.imageUrl} />
      </DetailCard>
    </div>
  );
}
