import { useForm } from '@tanstack/react-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { rejectVisitBodySchema } from '../../../../../contract/visit-reviews';
import type { Visit } from '../../../../../contract/visits';
import { css } from '../../../../../styled-system/css';
import { partnerChoicesQueryOptions } from '../../../../api/partners';
import {
  approveVisit,
  exportVisitReviews,
  rejectVisit,
  visitReviewKeys,
  visitReviewsQueryOptions,
} from '../../../../api/visit-reviews';
import { visitKeys } from '../../../../api/visits';
import { AppForm } from '../../../../components/app-form';
import { type DataColumn, dataColumnHelper } from '../../../../components/data-table';
import { ListTable, ListTabs, useRouteList } from '../../../../components/list-screen';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { screenPermission } from '../../../../components/screens';
import { Button } from '../../../../components/ui/button';
import { Dialog } from '../../../../components/ui/dialog';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import { SelectField } from '../../../../components/ui/select';
import { tableLink } from '../../../../components/ui/text-link';
import { ReviewReasons, ReviewStateBadge } from '../../../../components/visit-parts';
import { authErrorMessage } from '../../../../lib/error-message';
import { fieldProps, validateOnChangeAndBlur } from '../../../../lib/form';
import { formatDateTime, formatNaira, fullName } from '../../../../lib/format';
import { type REVIEW_TABS, visitReviewParams } from './visit-review-search';

const route = getRouteApi('/dashboard/visit-reviews/');
const col = dataColumnHelper<Visit>();
const nowrap = css({ whiteSpace: 'nowrap' });
const muted = css({ display: 'block', fontSize: 'xs', color: 'fg.muted' });

const TAB_LABELS: Record<(typeof REVIEW_TABS)[number], string> = {
  waiting: 'Waiting',
  rejected: 'Rejected',
  approved: 'Approved',
};

const reviewColumns = (waiting: boolean, onReject: (visit: Visit) => void): DataColumn<Visit>[] =>
  col.columns([
    col.accessor((v) => fullName(v.user.firstName, v.user.lastName), {
      id: 'customer',
      header: 'Customer',
      cell: ({ row: { original: v } }) => (
        <span>
          <span className={nowrap}>{fullName(v.user.firstName, v.user.lastName)}</span>
          <span className={muted}>{v.partner.organizationName}</span>
        </span>
      ),
    }),
    col.accessor('visitDate', {
      header: 'Visit Date',
      enableSorting: true,
      cell: ({ getValue }) => <span className={nowrap}>{formatDateTime(getValue())}</span>,
    }),
    col.accessor('totalAmount', {
      header: 'Total Amount',
      enableSorting: true,
      meta: { align: 'end' },
      cell: ({ getValue }) => <span className={nowrap}>{formatNaira(getValue())}</span>,
    }),
    col.display({
      id: 'flags',
      header: 'Why it was flagged',
      cell: ({ row: { original: v } }) => <ReviewReasons review={v.review} />,
    }),
    col.display({
      id: 'state',
      header: 'State',
      cell: ({ row: { original: v } }) => (
        <span>
          <ReviewStateBadge review={v.review} />
          {v.review.reviewedBy ? (
            <span className={muted}>
              {v.review.reviewedBy.name}
              {v.review.reviewedAt ? `, ${formatDateTime(v.review.reviewedAt)}` : ''}
            </span>
          ) : null}
        </span>
      ),
    }),
    col.display({
      id: 'actions',
      header: 'Actions',
      meta: { align: 'end' },
      cell: ({ row: { original: v } }) => (
        <span className={css({ display: 'inline-flex', flexWrap: 'wrap', gap: '1', justifyContent: 'end' })}>
          <Link to="/dashboard/visits/$visitId" params={{ visitId: v.id }} className={tableLink}>
            View
          </Link>
          {waiting ? (
            <>
              <ApproveButton visit={v} />
              <Button
                variant="ghost"
                size="sm"
                onClick={() => onReject(v)}
                aria-label={`Reject visit ${v.id} of ${fullName(v.user.firstName, v.user.lastName)}`}
              >
                Reject
              </Button>
            </>
          ) : null}
        </span>
      ),
    }),
  ]);

/**
 * /dashboard/visit-reviews (issue 35, decision 075): the visits a partner's rules flagged, by state.
 * A waiting visit is approved (it counts towards eligibility and points) or rejected with a reason
 * (it never counts; the partner sees the reason).
 */
export function VisitReviewsScreen() {
  return (
    <PageBody>
      <PageHeader
        title="Visit reviews"
        subtitle="Visits a partner's review rules flagged. They count towards eligibility and points only once approved."
      />
      <PartnerFilter />
      <ListTabs label="Review state" labels={TAB_LABELS} route={route}>
        <ReviewList />
      </ListTabs>
    </PageBody>
  );
}

function PartnerFilter() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const partners = useQuery(partnerChoicesQueryOptions());
  return (
    <div className={css({ mb: '4', w: { base: 'full', sm: '20rem' } })}>
      <SelectField
        label="Partner"
        options={[{ value: '', label: 'All partners' }, ...(partners.data ?? [])]}
        value={search.partner === undefined ? '' : String(search.partner)}
        onChange={(e) =>
          void navigate({
            search: (prev) => ({
              ...prev,
              page: 1,
              partner: e.target.value === '' ? undefined : Number(e.target.value),
            }),
          })
        }
      />
    </div>
  );
}

function ReviewList() {
  const search = route.useSearch();
  const params = visitReviewParams(search);
  const [rejecting, setRejecting] = useState<Visit | null>(null);
  const waiting = search.activeTab === 'waiting';
  const columns = useMemo(() => reviewColumns(waiting, setRejecting), [waiting]);
  return (
    <>
      <ListTable
        label="Flagged visits"
        columns={columns}
        query={useQuery(visitReviewsQueryOptions(params))}
        {...useRouteList(route)}
        searchLabel="Search flagged visits"
        exportCsv={{
          download: (opts) => exportVisitReviews(params, opts),
          permission: screenPermission('/dashboard/visit-reviews/'),
        }}
      />
      <RejectVisitDialog visit={rejecting} onClose={() => setRejecting(null)} />
    </>
  );
}

/** After a decision: the queue, and every list or figure a visit's state changes (visits, eligibility, points). */
function useRefreshAfterDecision() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: visitReviewKeys.all }),
      queryClient.invalidateQueries({ queryKey: visitKeys.all }),
    ]);
}

function ApproveButton({ visit }: { visit: Visit }) {
  const refresh = useRefreshAfterDecision();
  const approve = useMutation({
    mutationFn: () => approveVisit(visit.id),
    onSuccess: () => {
      notify.success('Visit approved: it counts towards eligibility and points');
      return refresh();
    },
    onError: (e) => notify.error(authErrorMessage(e)),
  });
  return (
    <Button
      variant="ghost"
      size="sm"
      loading={approve.isPending}
      onClick={() => approve.mutate()}
      aria-label={`Approve visit ${visit.id} of ${fullName(visit.user.firstName, visit.user.lastName)}`}
    >
      Approve
    </Button>
  );
}

/** Reject with a reason (required): the partner sees it on the visit. */
function RejectVisitDialog({ visit, onClose }: { visit: Visit | null; onClose: () => void }) {
  return (
    <Dialog
      open={visit !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Reject visit"
    >
      {visit ? <RejectVisitForm visit={visit} onDone={onClose} /> : null}
    </Dialog>
  );
}

function RejectVisitForm({ visit, onDone }: { visit: Visit; onDone: () => void }) {
  const refresh = useRefreshAfterDecision();
  const reject = useMutation({
    mutationFn: (reason: string) => rejectVisit(visit.id, reason),
    onSuccess: async () => {
      notify.success('Visit rejected: it does not count towards eligibility or points');
      onDone();
      await refresh();
    },
    onError: (e) => notify.error(authErrorMessage(e)),
  });
  const form = useForm({
    defaultValues: { reason: '' },
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: rejectVisitBodySchema },
    onSubmit: ({ value }) => reject.mutateAsync(value.reason.trim()),
  });
  return (
    <AppForm form={form} className={css({ display: 'grid', gap: '4' })}>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        The visit of {fullName(visit.user.firstName, visit.user.lastName)} at {visit.partner.organizationName}{' '}
        ({formatNaira(visit.totalAmount)}) will never count towards eligibility or points. The partner sees
        your reason.
      </p>
      <ReviewReasons review={visit.review} />
      <form.Field name="reason">
        {(field) => <TextField label="Reason" multiline {...fieldProps(field)} />}
      </form.Field>
      <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2', flexWrap: 'wrap' })}>
        <Button type="button" variant="outline" onClick={onDone} disabled={reject.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={reject.isPending} loadingText="Rejecting visit">
          Reject visit
        </Button>
      </div>
    </AppForm>
  );
}
