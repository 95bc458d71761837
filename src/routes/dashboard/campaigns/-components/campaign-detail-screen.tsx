import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate, useRouteContext } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { fromPromise } from 'xstate';
import type { Campaign, CampaignPreview } from '../../../../../contract/campaigns';
import { css } from '../../../../../styled-system/css';
import {
  approveCampaign,
  campaignDetailQueryOptions,
  campaignKeys,
  cancelCampaign,
  fetchCampaignPreview,
  rejectCampaign,
  submitCampaign,
} from '../../../../api/campaigns';
import { DetailCard, DetailList } from '../../../../components/detail-list';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { QueryBody } from '../../../../components/query-body';
import { Button } from '../../../../components/ui/button';
import { Dialog } from '../../../../components/ui/dialog';
import { TextField } from '../../../../components/ui/field';
import { formatCount, formatDate, formatDateTime, formatNaira, formatPercent } from '../../../../lib/format';
import { can } from '../../../../lib/permissions';
import { TEXTS } from '../../../../lib/texts';
import { type CampaignContext, campaignMachine } from '../../../../machines/campaign.machine';
import { CampaignStateBadge } from './campaign-parts';
import { countsText } from './campaigns-screen';

const route = getRouteApi('/dashboard/campaigns/$campaignId');

const stack = css({ display: 'flex', flexDirection: 'column', gap: '6' });
const heading = css({ fontSize: 'lg', fontWeight: 'semibold', mb: '3' });
const actions = css({ display: 'flex', flexWrap: 'wrap', gap: '2', justifyContent: 'flex-end', mt: '4' });
const note = css({ fontSize: 'sm', color: 'fg.muted' });
const alert = css({ color: 'fg.error', fontSize: 'sm' });
const list = css({ display: 'grid', gap: '1', fontSize: 'sm', pl: '5', listStyleType: 'disc' });

/**
 * The campaign machine with the real calls. Each answer also becomes the campaign's cached read,
 * so the poll, the list and another screen of this tab see it at once.
 */
function liveCampaignMachine(queryClient: QueryClient) {
  const keep = <I extends { id: number }>(call: (input: I) => Promise<Campaign>) =>
    fromPromise<Campaign, I>(async ({ input }) => {
      const campaign = await call(input);
      queryClient.setQueryData(campaignKeys.detail(campaign.id), campaign);
      void queryClient.invalidateQueries({ queryKey: campaignKeys.lists() });
      return campaign;
    });
  return campaignMachine.provide({
    actors: {
      loadPreview: fromPromise<CampaignPreview, { id: number }>(({ input }) =>
        fetchCampaignPreview(input.id),
      ),
      submitCampaign: keep(({ id }: { id: number }) => submitCampaign(id)),
      approveCampaign: keep(({ id }: { id: number }) => approveCampaign(id)),
      rejectCampaign: keep(({ id, reason }: { id: number; reason: string }) => rejectCampaign(id, reason)),
      cancelCampaign: keep(({ id }: { id: number }) => cancelCampaign(id)),
    },
  });
}

/** /dashboard/campaigns/{id}: the campaign's state, counts and people, and its next step. */
export function CampaignDetailScreen() {
  const { campaignId } = route.useParams();
  const navigate = useNavigate();
  const query = useQuery(campaignDetailQueryOptions(campaignId));
  return (
    <PageBody>
      <PageHeader
        title={query.data?.name ?? 'Campaign'}
        subtitle={
          query.data ? `${query.data.partner.organizationName} · campaign ${query.data.id}` : undefined
        }
        actions={
          <Button variant="outline" onClick={() => void navigate({ to: '/dashboard/campaigns' })}>
            Back
          </Button>
        }
      />
      <QueryBody query={query} loadingLabel="Loading campaign">
        {(campaign) => <CampaignFlow key={campaign.id} first={campaign} latest={query.data ?? campaign} />}
      </QueryBody>
    </PageBody>
  );
}

function CampaignFlow({ first, latest }: { first: Campaign; latest: Campaign }) {
  const queryClient = useQueryClient();
  const { session } = useRouteContext({ from: '__root__' });
  const user = useSelector(session, (s) => s.context.session?.user ?? null);
  // Approve and reject are the club's (club staff holding rewards.approve), never the maker's.
  const mayDecide =
    can(user, 'rewards.approve') && user?.partnerId == null && first.createdBy?.id !== user?.id;
  const machine = useMemo(() => liveCampaignMachine(queryClient), [queryClient]);
  const actor = useActorRef(machine, { input: { campaign: first, mayDecide } });
  const snapshot = useSelector(actor, (s) => s);
  const c = snapshot.context;

  // The server moved the campaign on (its run, another tab, another person): the flow follows.
  useEffect(() => {
    if (latest.state !== actor.getSnapshot().context.campaign.state)
      actor.send({ type: 'campaign.read', campaign: latest });
  }, [latest, actor]);

  // Counts from the latest read (the poll), the state from the flow.
  const shown = latest.state === c.campaign.state ? latest : c.campaign;
  const state = String(snapshot.value);

  return (
    <div className={stack}>
      <CampaignSummary campaign={shown} />
      {state === 'previewing' || state === 'preview' || state === 'submitting' ? (
        <PreviewCard
          context={c}
          loading={state === 'previewing'}
          submitting={state === 'submitting'}
          onRefresh={() => actor.send({ type: 'campaign.preview' })}
          onSubmit={() => actor.send({ type: 'campaign.submit' })}
          onCancel={() => actor.send({ type: 'campaign.cancel' })}
        />
      ) : null}
      {state === 'waiting' || state === 'approving' || state === 'rejecting' ? (
        <WaitingCard
          context={c}
          busy={state === 'approving' ? 'approving' : state === 'rejecting' ? 'rejecting' : null}
          onApprove={() => actor.send({ type: 'campaign.approve' })}
          onReject={(reason) => actor.send({ type: 'campaign.reject', reason })}
          onCancel={() => actor.send({ type: 'campaign.cancel' })}
        />
      ) : null}
      {state === 'running' ? (
        <RunningCard
          campaign={shown}
          error={c.error}
          onCancel={() => actor.send({ type: 'campaign.cancel' })}
        />
      ) : null}
      {state === 'cancelling' ? (
        <DetailCard label="Cancelling">
          <p role="status" className={note}>
            Cancelling the campaign…
          </p>
        </DetailCard>
      ) : null}
      {state === 'done' || state === 'cancelled' || state === 'rejected' || state === 'failed' ? (
        <OutcomeCard campaign={shown} error={c.error} />
      ) : null}
    </div>
  );
}

function rewardText(c: Campaign) {
  const r = c.reward;
  return r.rewardType === 'GIFTCARD'
    ? `Gift card of ${formatNaira(r.issuedAmount)}`
    : `Coupon of ${formatPercent(r.percentageDiscount).replace('.00', '')} off`;
}

function segmentText(c: Campaign) {
  const s = c.segment;
  if (s.kind === 'eligible') return "The partner's eligible customers";
  if (s.kind === 'list') {
    const n = (s.customerIds?.length ?? 0) + (s.emails?.length ?? 0) + (s.externalIds?.length ?? 0);
    return `A list of ${formatCount(n)} ${n === 1 ? 'entry' : 'entries'}`;
  }
  const parts = [
    s.status ? `status ${s.status === 'ACTIVE' ? 'Active' : 'Blocked'}` : null,
    s.visitedFrom || s.visitedTo
      ? `visited ${s.visitedFrom ? `from ${formatDate(s.visitedFrom)}` : ''}${s.visitedFrom && s.visitedTo ? ' ' : ''}${s.visitedTo ? `to ${formatDate(s.visitedTo)}` : ''}`
      : 'linked to the partner',
  ].filter(Boolean);
  return `Customers ${parts.join(', ')}`;
}

function CampaignSummary({ campaign: c }: { campaign: Campaign }) {
  return (
    <DetailCard label="Campaign">
      <div className={css({ display: 'flex', alignItems: 'center', gap: '3', mb: '4', flexWrap: 'wrap' })}>
        <CampaignStateBadge state={c.state} />
        <span data-testid="campaign-counts" className={note}>
          {countsText(c)}
        </span>
      </div>
      <DetailList
        items={[
          { label: 'Reward', value: `${rewardText(c)}: ${c.reward.title}` },
          { label: 'Segment', value: segmentText(c) },
          {
            label: 'Face value',
            value: c.totalValue === null ? 'Fixed on submit' : formatNaira(c.totalValue),
          },
          { label: 'Expires', value: c.reward.expiryDate ? formatDate(c.reward.expiryDate) : 'Never' },
          { label: 'Made by', value: c.createdBy?.name ?? '' },
          {
            label: c.rejectedBy ? 'Rejected by' : 'Approved by',
            value: c.rejectedBy?.name ?? c.approvedBy?.name ?? '',
          },
          ...(c.rejectionReason ? [{ label: 'Reason', value: c.rejectionReason }] : []),
          ...(c.error ? [{ label: 'Why it stopped', value: c.error }] : []),
          { label: 'Created', value: formatDateTime(c.createdAt) },
          ...(c.finishedAt ? [{ label: 'Finished', value: formatDateTime(c.finishedAt) }] : []),
        ]}
      />
    </DetailCard>
  );
}

function ErrorLine({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className={alert}>
      {error}
    </p>
  ) : null;
}

function CancelButton({ onConfirm, disabled }: { onConfirm: () => void; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)} disabled={disabled}>
        Cancel campaign
      </Button>
      <Dialog open={open} onOpenChange={setOpen} title="Cancel campaign">
        <p className={note}>{TEXTS.campaign.cancelConfirm}</p>
        <div className={actions}>
          <Button variant="outline" onClick={() => setOpen(false)}>
            Keep it
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            Cancel campaign
          </Button>
        </div>
      </Dialog>
    </>
  );
}

function PreviewCard({
  context: c,
  loading,
  submitting,
  onRefresh,
  onSubmit,
  onCancel,
}: {
  context: CampaignContext;
  loading: boolean;
  submitting: boolean;
  onRefresh: () => void;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  const p = c.preview;
  const reasons = p
    ? (Object.entries(p.skipped.byReason) as [keyof typeof TEXTS.campaign.skipReasons, number][]).filter(
        ([, n]) => n > 0,
      )
    : [];
  return (
    <DetailCard label="Preview">
      <h2 className={heading}>Preview</h2>
      {loading ? (
        <p role="status" className={note}>
          Counting the customers…
        </p>
      ) : p ? (
        <div className={css({ display: 'grid', gap: '3' })} data-testid="campaign-preview">
          <DetailList
            columns={3}
            items={[
              { label: 'Customers to reward', value: formatCount(p.count) },
              { label: 'Total face value', value: formatNaira(p.totalValue) },
              { label: 'Skipped', value: formatCount(p.skipped.count) },
            ]}
          />
          {reasons.length > 0 ? (
            <ul className={list} aria-label="Skipped, by reason">
              {reasons.map(([reason, n]) => (
                <li key={reason}>
                  {TEXTS.campaign.skipReasons[reason]}: {formatCount(n)}
                </li>
              ))}
            </ul>
          ) : null}
          {p.skipped.customers.length > 0 ? (
            <details>
              <summary className={note}>
                Who is skipped (the first {formatCount(p.skipped.customers.length)})
              </summary>
              <ul className={list}>
                {p.skipped.customers.map((s) => (
                  <li key={`${s.customerId ?? s.ref}-${s.reason}`}>
                    {s.customerId === null ? `"${s.ref ?? ''}"` : `Customer ${s.customerId}`}:{' '}
                    {TEXTS.campaign.skipReasons[s.reason]}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
          {p.needsApproval ? (
            <p className={note}>
              Submitting it waits for a second person's approval: {p.approvalReasons.join('; ')}.
            </p>
          ) : null}
        </div>
      ) : (
        <p className={note}>{TEXTS.campaign.noPreview}</p>
      )}
      <ErrorLine error={c.error} />
      <div className={actions}>
        <CancelButton onConfirm={onCancel} disabled={submitting || loading} />
        <Button variant="outline" onClick={onRefresh} disabled={submitting || loading}>
          Refresh preview
        </Button>
        <Button onClick={onSubmit} loading={submitting} loadingText="Submitting" disabled={loading || !p}>
          Submit
        </Button>
      </div>
    </DetailCard>
  );
}

function WaitingCard({
  context: c,
  busy,
  onApprove,
  onReject,
  onCancel,
}: {
  context: CampaignContext;
  busy: 'approving' | 'rejecting' | null;
  onApprove: () => void;
  onReject: (reason: string) => void;
  onCancel: () => void;
}) {
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  return (
    <DetailCard label="Waiting for approval">
      <h2 className={heading}>{TEXTS.campaign.states.awaiting_approval}</h2>
      <p className={note}>{TEXTS.campaign.waiting}</p>
      <ErrorLine error={rejecting ? null : c.error} />
      <div className={actions}>
        <CancelButton onConfirm={onCancel} disabled={busy !== null} />
        {c.mayDecide ? (
          <>
            <Button variant="outline" onClick={() => setRejecting(true)} disabled={busy !== null}>
              Reject
            </Button>
            <Button
              onClick={onApprove}
              loading={busy === 'approving'}
              loadingText="Approving"
              disabled={busy !== null}
            >
              Approve
            </Button>
          </>
        ) : null}
      </div>
      <Dialog
        open={rejecting}
        onOpenChange={(open) => {
          if (!open && busy === null) setRejecting(false);
        }}
        title="Reject campaign"
      >
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            onReject(reason);
          }}
          className={css({ display: 'grid', gap: '4' })}
        >
          <p className={note}>The maker sees your reason on the campaign.</p>
          <TextField
            label="Reason"
            multiline
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            error={c.reasonError ?? undefined}
            disabled={busy === 'rejecting'}
          />
          <ErrorLine error={c.error} />
          <div className={actions}>
            <Button variant="outline" onClick={() => setRejecting(false)} disabled={busy === 'rejecting'}>
              Keep it
            </Button>
            <Button type="submit" variant="danger" loading={busy === 'rejecting'} loadingText="Rejecting">
              Reject campaign
            </Button>
          </div>
        </form>
      </Dialog>
    </DetailCard>
  );
}

function RunningCard({
  campaign: c,
  error,
  onCancel,
}: {
  campaign: Campaign;
  error: string | null;
  onCancel: () => void;
}) {
  const total = c.total ?? 0;
  const handled = c.issued + c.skipped;
  return (
    <DetailCard label="Progress">
      <h2 className={heading}>{TEXTS.campaign.states.running}</h2>
      <p className={note}>{TEXTS.campaign.started}</p>
      <div className={css({ mt: '3' })}>
        <progress
          aria-label="Campaign progress"
          value={handled}
          max={Math.max(total, 1)}
          className={css({ w: 'full', h: '2', accentColor: 'brand.700' })}
        />
        <p role="status" className={note}>
          {formatCount(handled)} of {formatCount(total)} customers handled
        </p>
      </div>
      <ErrorLine error={error} />
      <div className={actions}>
        <CancelButton onConfirm={onCancel} />
      </div>
    </DetailCard>
  );
}

function OutcomeCard({ campaign: c, error }: { campaign: Campaign; error: string | null }) {
  const text: Record<string, string> = {
    done: `Finished: ${formatCount(c.issued)} ${c.issued === 1 ? 'reward' : 'rewards'} issued, ${formatCount(c.skipped)} skipped.`,
    cancelled: `Cancelled: ${formatCount(c.issued)} ${c.issued === 1 ? 'reward was' : 'rewards were'} issued before it stopped; they stay.`,
    rejected: `Rejected${c.rejectedBy ? ` by ${c.rejectedBy.name}` : ''}: ${c.rejectionReason ?? ''}`,
    failed: `Stopped: ${c.error ?? 'the run could not go on'}. ${formatCount(c.issued)} issued before it stopped.`,
    expired: 'Expired: nobody decided within the approval period (decision 074); nothing was issued.',
  };
  return (
    <DetailCard label="Outcome">
      <h2 className={heading}>{TEXTS.campaign.states[c.state]}</h2>
      <p data-testid="campaign-outcome" className={css({ fontSize: 'sm' })}>
        {text[c.state] ?? ''}
      </p>
      <ErrorLine error={error} />
    </DetailCard>
  );
}
