import { useQuery } from '@tanstack/react-query';
import type { RewardRequest } from '../../../../../contract/approvals';
import { css } from '../../../../../styled-system/css';
import { rewardRequestsQueryOptions } from '../../../../api/approvals';
import { DetailCard } from '../../../../components/detail-list';
import { Badge, type BadgeTone } from '../../../../components/ui/badge';
import { formatDateTime, formatNaira } from '../../../../lib/format';

const STATE: Record<RewardRequest['state'], [string, BadgeTone]> = {
  awaiting_approval: ['Waiting for approval', 'warning'],
  approved: ['Approved and issued', 'success'],
  rejected: ['Rejected', 'danger'],
  expired: ['Expired', 'danger'],
};

const muted = css({ fontSize: 'xs', color: 'fg.muted' });

/** What became of one request, in a line: who decided, why, or until when it waits. */
function outcome(r: RewardRequest): string {
  if (r.state === 'awaiting_approval') return r.expiresAt ? `Expires ${formatDateTime(r.expiresAt)}` : '';
  if (r.state === 'expired') return 'Nobody decided in time: nothing was issued';
  const by = r.decidedBy ? `by ${r.decidedBy.name}` : '';
  return r.state === 'rejected' ? `${by}: ${r.rejectionReason ?? ''}` : by;
}

/**
 * The partner's single rewards above the club's four-eyes threshold (issue 35, decision 074): what
 * the maker sent for approval, its state and, when rejected, the reason. Shown only when there are
 * any.
 */
export function RewardRequestsPanel({ partnerId }: { partnerId: number }) {
  const requests = useQuery(rewardRequestsQueryOptions(partnerId));
  const records = requests.data?.records ?? [];
  if (records.length === 0) return null;
  return (
    <div className={css({ mb: '6' })}>
      <DetailCard label="Rewards sent for approval">
        <h3 className={css({ fontWeight: 'semibold', mb: '3' })}>Rewards sent for approval</h3>
        <ul className={css({ display: 'grid', gap: '3' })}>
          {records.map((r) => {
            const [label, tone] = STATE[r.state];
            return (
              <li
                key={r.id}
                className={css({
                  display: 'grid',
                  gap: '1',
                  borderBottomWidth: '1px',
                  pb: '3',
                  _last: { borderBottomWidth: '0' },
                })}
              >
                <span className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center' })}>
                  <span className={css({ fontWeight: 'semibold' })}>
                    {r.rewardType === 'GIFTCARD' ? `Gift card ${formatNaira(r.issuedAmount)}` : r.title} for{' '}
                    {r.customer.name}
                  </span>
                  <Badge tone={tone}>{label}</Badge>
                </span>
                <span className={muted}>
                  Asked by {r.createdBy?.name ?? 'a partner system'}, {formatDateTime(r.createdAt)}
                </span>
                {outcome(r) ? <span className={muted}>{outcome(r)}</span> : null}
              </li>
            );
          })}
        </ul>
      </DetailCard>
    </div>
  );
}
