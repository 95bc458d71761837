import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import type { ApprovalItem } from '../../../../../contract/approvals';
import { css } from '../../../../../styled-system/css';
import {
  type ApprovalQueueState,
  approvalKeys,
  approvalsQueryOptions,
  approveItem,
  rejectItem,
} from '../../../../api/approvals';
import { type DataColumn, DataTable, dataColumnHelper } from '../../../../components/data-table';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { Badge, type BadgeTone } from '../../../../components/ui/badge';
import { Button } from '../../../../components/ui/button';
import { Dialog } from '../../../../components/ui/dialog';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import { Tabs } from '../../../../components/ui/tabs';
import { authErrorMessage, fieldErrorsOf } from '../../../../lib/error-message';
import { formatCount, formatDateTime, formatNaira } from '../../../../lib/format';
import { applyListChange, type ListChange, type ListState } from '../../../../lib/list-search';
import { useStaffActor } from '../../../../lib/use-can';

const route = getRouteApi('/dashboard/approvals/');
const col = dataColumnHelper<ApprovalItem>();
const nowrap = css({ whiteSpace: 'nowrap' });
const muted = css({ fontSize: 'xs', color: 'fg.muted' });

const TABS: { value: ApprovalQueueState; label: string }[] = [
  { value: 'awaiting_approval', label: 'Waiting' },
  { value: 'expired', label: 'Expired' },
  { value: 'decided', label: 'Decided' },
];

/** How a state reads (a campaign approved runs, then is done). */
const STATE_LABEL: Record<string, [string, BadgeTone]> = {
  awaiting_approval: ['Waiting for approval', 'warning'],
  expired: ['Expired', 'danger'],
  rejected: ['Rejected', 'danger'],
  approved: ['Approved', 'success'],
  running: ['Approved, running', 'success'],
  done: ['Approved, done', 'success'],
  cancelled: ['Approved, cancelled', 'brand'],
  failed: ['Approved, failed', 'danger'],
};

const SKIP_LABEL: Record<string, string> = {
  not_found: 'not found',
  erased: 'erased',
  blocked: 'blocked',
  not_linked: 'not linked',
  already_rewarded: 'already rewarded',
};

/** 'A gift card of ₦60,000.00' or 'A 15% coupon', each. */
const rewardText = (i: ApprovalItem) =>
  i.rewardType === 'GIFTCARD'
    ? `Gift card ${formatNaira(i.issuedAmount)}`
    : `Coupon ${i.percentageDiscount}%`;

/** The figures to decide on: how many, how much, and for a campaign who is skipped and why. */
function Figures({ item }: { item: ApprovalItem }) {
  const skipped = item.preview?.skipped;
  const reasons = skipped
    ? Object.entries(skipped.byReason)
        .filter(([, n]) => n > 0)
        .map(([r, n]) => `${SKIP_LABEL[r] ?? r} ${formatCount(n)}`)
    : [];
  return (
    <div className={css({ display: 'grid', gap: '0.5' })}>
      <span>
        {item.kind === 'campaign'
          ? `${formatCount(item.count)} customer${item.count === 1 ? '' : 's'} · ${formatNaira(item.totalValue)}`
          : `${formatNaira(item.totalValue)} for ${item.customer?.name ?? 'a customer'}`}
      </span>
      <span className={muted}>{rewardText(item)} each</span>
      {skipped ? (
        <span className={muted}>
          {skipped.count === 0
            ? 'Nobody skipped'
            : `${formatCount(skipped.count)} skipped: ${reasons.join(', ')}`}
        </span>
      ) : null}
      {item.approvalReasons.map((r) => (
        <span key={r} className={muted}>
          {r}
        </span>
      ))}
    </div>
  );
}

function StateCell({ item }: { item: ApprovalItem }) {
  const [label, tone] = STATE_LABEL[item.state] ?? [item.state, 'brand'];
  return (
    <div className={css({ display: 'grid', gap: '1', justifyItems: 'start' })}>
      <Badge tone={tone}>{label}</Badge>
      {item.state === 'awaiting_approval' && item.expiresAt ? (
        <span className={muted}>Expires {formatDateTime(item.expiresAt)}</span>
      ) : null}
      {item.decidedBy ? (
        <span className={muted}>
          By {item.decidedBy.name}
          {item.decidedAt ? `, ${formatDateTime(item.decidedAt)}` : ''}
        </span>
      ) : null}
      {item.rejectionReason ? <span className={muted}>Reason: {item.rejectionReason}</span> : null}
    </div>
  );
}

const columns = (
  me: number | undefined,
  onApprove: (i: ApprovalItem) => void,
  onReject: (i: ApprovalItem) => void,
): DataColumn<ApprovalItem>[] =>
  col.columns([
    col.accessor('name', {
      header: 'Request',
      cell: ({ row }) => (
        <div className={css({ display: 'grid', gap: '0.5' })}>
          <span className={css({ fontWeight: 'semibold' })}>{row.original.name}</span>
          <span className={muted}>
            {row.original.kind === 'campaign' ? 'Campaign' : 'Single reward'} at{' '}
            {row.original.partner.organizationName}
          </span>
        </div>
      ),
    }),
    col.accessor((i) => i.maker?.name ?? '', {
      id: 'maker',
      header: 'Maker',
      cell: ({ row }) => (
        <div className={css({ display: 'grid', gap: '0.5' })}>
          <span>{row.original.maker?.name ?? 'A partner system'}</span>
          <span className={muted}>{formatDateTime(row.original.waitingSince)}</span>
        </div>
      ),
    }),
    col.display({ id: 'figures', header: 'Figures', cell: ({ row }) => <Figures item={row.original} /> }),
    col.accessor('state', { header: 'State', cell: ({ row }) => <StateCell item={row.original} /> }),
    col.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) => {
        const item = row.original;
        if (item.state !== 'awaiting_approval') return null;
        // The maker never decides their own request (the server refuses it too).
        if (me !== undefined && item.maker?.id === me)
          return <span className={`${muted} ${nowrap}`}>Yours: a second person decides</span>;
        return (
          <div className={css({ display: 'flex', gap: '2' })}>
            <Button size="sm" onClick={() => onApprove(item)} aria-label={`Approve ${item.name}`}>
              Approve
            </Button>
            <Button
              size="sm"
              variant="outline"
              onClick={() => onReject(item)}
              aria-label={`Reject ${item.name}`}
            >
              Reject
            </Button>
          </div>
        );
      },
    }),
  ]);

/**
 * /dashboard/approvals (holders of `rewards.approve`, issue 35, decision 074): what waits for a second
 * person (campaigns and single rewards), with the maker, the figures and a campaign's preview;
 * approve, or reject with a reason. Expired and decided requests on their own tabs.
 */
export function ApprovalsScreen() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const me = useStaffActor()?.id;
  const list = useQuery(approvalsQueryOptions(search));
  const [approving, setApproving] = useState<ApprovalItem | null>(null);
  const [rejecting, setRejecting] = useState<ApprovalItem | null>(null);
  const cols = useMemo(() => columns(me, setApproving, setRejecting), [me]);
  const state: ListState = { page: search.page, pageSize: search.pageSize, search: '' };
  const onChange = (change: ListChange) => {
    const next = applyListChange(state, change);
    void navigate({ search: (prev) => ({ ...prev, page: next.page, pageSize: next.pageSize }) });
  };
  const table = (
    <DataTable
      label="Approvals"
      columns={cols}
      records={list.data?.records}
      totalCount={list.data?.meta.totalCount}
      isPending={list.isPending}
      isFetching={list.isFetching}
      error={list.error}
      onRetry={() => void list.refetch()}
      state={state}
      onChange={onChange}
      getRowId={(i) => `${i.kind}-${i.id}`}
    />
  );
  return (
    <PageBody>
      <PageHeader
        title="Approvals"
        subtitle="Campaigns and rewards above the club's thresholds wait here for a second person. The person who asked cannot decide."
      />
      <Tabs
        label="Approval state"
        value={search.state}
        onValueChange={(value) => void navigate({ search: (prev) => ({ ...prev, state: value, page: 1 }) })}
        items={TABS.map((t) => ({ ...t, content: t.value === search.state ? table : null }))}
      />
      <ApproveDialog item={approving} onClose={() => setApproving(null)} />
      <RejectDialog item={rejecting} onClose={() => setRejecting(null)} />
    </PageBody>
  );
}

function ApproveDialog({ item, onClose }: { item: ApprovalItem | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const approve = useMutation({
    mutationFn: approveItem,
    onSuccess: (message) => {
      notify.success(message);
      onClose();
    },
    onError: (e) => notify.error(authErrorMessage(e)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: approvalKeys.all }),
  });
  return (
    <Dialog
      open={item !== null}
      onOpenChange={(o) => (o || approve.isPending ? undefined : onClose())}
      title={item?.kind === 'campaign' ? 'Approve campaign' : 'Approve reward'}
    >
      {item ? (
        <div className={css({ display: 'grid', gap: '3', fontSize: 'sm' })}>
          <p>
            {item.kind === 'campaign'
              ? `Approve “${item.name}” at ${item.partner.organizationName}? It starts at once.`
              : `Approve “${item.name}” for ${item.customer?.name ?? 'the customer'} at ${item.partner.organizationName}? It is issued at once.`}
          </p>
          <Figures item={item} />
          <p className={muted}>Asked by {item.maker?.name ?? 'a partner system'}.</p>
        </div>
      ) : null}
      <div
        className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2', mt: '6', flexWrap: 'wrap' })}
      >
        <Button variant="outline" onClick={onClose} disabled={approve.isPending}>
          Cancel
        </Button>
        <Button
          loading={approve.isPending}
          loadingText="Approving"
          onClick={() => item && approve.mutate(item)}
        >
          Approve
        </Button>
      </div>
    </Dialog>
  );
}

function RejectDialog({ item, onClose }: { item: ApprovalItem | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const close = () => {
    setReason('');
    setError(undefined);
    onClose();
  };
  const reject = useMutation({
    mutationFn: (i: ApprovalItem) => rejectItem(i, reason.trim()),
    onSuccess: (message) => {
      notify.success(message);
      close();
    },
    onError: (e) => {
      const onField = fieldErrorsOf(e).find((f) => f.fieldName === 'reason')?.message;
      if (onField) setError(onField);
      else notify.error(authErrorMessage(e));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: approvalKeys.all }),
  });
  return (
    <Dialog
      open={item !== null}
      onOpenChange={(o) => (o || reject.isPending ? undefined : close())}
      title={item?.kind === 'campaign' ? 'Reject campaign' : 'Reject reward'}
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!reason.trim()) return setError('Give a reason');
          if (item) reject.mutate(item);
        }}
        className={css({ display: 'grid', gap: '4' })}
      >
        <p className={css({ fontSize: 'sm' })}>
          Reject “{item?.name}” at {item?.partner.organizationName}? Nothing is issued;{' '}
          {item?.maker?.name ?? 'the maker'} reads your reason.
        </p>
        <TextField
          label="Reason"
          multiline
          value={reason}
          error={error}
          onChange={(e) => {
            setReason(e.target.value);
            setError(undefined);
          }}
        />
        <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2', flexWrap: 'wrap' })}>
          <Button type="button" variant="outline" onClick={close} disabled={reject.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" loading={reject.isPending} loadingText="Rejecting">
            Reject
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
