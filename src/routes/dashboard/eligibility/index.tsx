import { createFileRoute, Link } from '@tanstack/react-router';
import { css } from '../../../../styled-system/css';
import { DetailCard } from '../../../components/detail-list';
import { RouteErrorState } from '../../../components/forbidden-state';
import { PageBody, PageHeader } from '../../../components/page-header';
import { screenGuard } from '../../../components/screens';
import { textLink } from '../../../components/ui/text-link';

export const Route = createFileRoute('/dashboard/eligibility/')({
  beforeLoad: screenGuard('/dashboard/eligibility/'),
  errorComponent: RouteErrorState,
  component: EligibilityOverview,
});

/** The destination after issuing a reward: how eligibility works, and where to see it. */
function EligibilityOverview() {
  return (
    <PageBody>
      <PageHeader title="Eligibility" subtitle="Who qualifies for a reward at a partner" />
      <DetailCard label="About eligibility">
        <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '4', maxW: '2xl' })}>
          A customer is eligible at a partner on a date when they spent at least the partner's minimum spend
          to qualify there in the 30 days up to that date. Customers also collect 1 point for every ₦100
          spent. Open a partner and choose its Eligible users tab to see who qualifies on a date.
        </p>
        <Link to="/dashboard/partners" className={textLink}>
          Go to partners
        </Link>
      </DetailCard>
    </PageBody>
  );
}
