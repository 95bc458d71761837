import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { fromPromise } from 'xstate';
import type { LedgerEntry, RewardLedger } from '../../../contract/redemption';
import { css } from '../../../styled-system/css';
import { reverseRedemption, rewardKeys, rewardLedgerQueryOptions } from '../../api/rewards';
import { statsKeys } from '../../api/stats';
import { formatDateTime, formatNaira } from '../../lib/format';
import { TEXTS } from '../../lib/texts';
import { useCan } from '../../lib/use-can';
import { useNetworkEvents } from '../../lib/use-network-events';
import { type ReversalRequest, reversalMachine } from '../../machines/reversal.machine';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { TextField } from '../ui/field';
import { Spinner } from '../ui/spinner';

const sectionTitle = css({ fontSize: 'md', fontWeight: 'semibold' });
const muted = css({ color: 'fg.muted', fontSize: 'sm' });
const alert = css({ color: 'fg.error', fontSize: 'sm', mt: '3' });
const actions = css({ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: '2', mt: '6' });
/**
 * The ledger: on a phone each entry is a card, its fields under their labels and Reverse at its
 * foot, so nothing needs a sideways scroll (the card rule of decision 067); from lg up a table (at
 * md the sidebar leaves the panel too narrow for its six columns).
 */
const table = css({
  w: 'full',
  fontSize: 'sm',
  borderCollapse: 'collapse',
  display: 'block',
  '& thead': { display: 'none' },
  '& tbody': { display: 'flex', flexDirection: 'column', gap: '3' },
  '& tr': { display: 'flex', flexDirection: 'column', gap: '1', p: '3', layerStyle: 'outlined' },
  '& td': { display: 'flex', gap: '3', overflowWrap: 'anywhere' },
  '& td[data-label]::before': {
    content: 'attr(data-label)',
    flex: '0 0 35%',
    textStyle: 'caption',
    color: 'fg.muted',
  },
  lg: {
    display: 'table',
    '& thead': { display: 'table-header-group' },
    '& tbody': { display: 'table-row-group' },
    '& tr': { display: 'table-row', p: '0', borderWidth: '0', borderRadius: '0' },
    '& th': {
      textAlign: 'start',
      fontWeight: 'semibold',
      color: 'fg.muted',
      fontSize: 'xs',
      py: '2',
      px: '2',
      borderBottomWidth: '1px',
      borderColor: 'border.default',
    },
    '& td': {
      display: 'table-cell',
      py: '2',
      px: '2',
      borderBottomWidth: '1px',
      borderColor: 'border.default',
      verticalAlign: 'top',
    },
    '& td[data-label]::before': { content: 'none' },
  },
});
const tag = css({
  display: 'inline-block',
  ml: '2',
  px: '2',
  borderRadius: 'full',
  fontSize: 'xs',
  bg: 'bg.subtle',
  color: 'fg.muted',
});

const KIND_LABELS: Record<LedgerEntry['kind'], string> = {
  ISSUE: 'Issued',
  REDEEM: 'Redeemed',
  REVERSAL: 'Reversal',
};

/** What an entry did to the balance: '+₦2,000.00', '-₦300.00'; a coupon's redemption has no amount. */
export const signedAmount = (amount: number, rewardType: 'GIFTCARD' | 'COUPON') =>
  rewardType === 'COUPON' ? '-' : `${amount < 0 ? '-' : '+'}${formatNaira(Math.abs(amount))}`;

/** A REDEEM entry not yet given back: the only kind a reversal takes. */
export const isReversible = (entry: LedgerEntry) => entry.kind === 'REDEEM' && entry.reversedById === null;

/**
 * A reward's ledger: every entry (issue, redemptions, reversals) with when, how much, by whom and
 * why, the redemptions already given back marked; with `rewards.reverse`, a 'Reverse' action on a
 * redemption not yet reversed (ReverseRedemptionDialog). Shown where a reward is shown: the partner's
 * Rewards tab and the guided redemption's receipt.
 */
export function RewardLedgerPanel({ rewardId }: { rewardId: number }) {
  const can = useCan();
  const canReverse = can('rewards.reverse');
  const ledger = useQuery(rewardLedgerQueryOptions(rewardId));
  const [reversing, setReversing] = useState<LedgerEntry | null>(null);
  if (ledger.isPending) return <Spinner label="Loading history" />;
  if (ledger.error) {
    return (
      <p role="alert" className={alert}>
        {ledger.error.message || 'The history could not be loaded'}
      </p>
    );
  }
  const { reward, entries } = ledger.data;
  const giftcard = reward.rewardType === 'GIFTCARD';
  return (
    <section aria-label={`History of ${reward.code}`}>
      <div
        className={css({
          display: 'flex',
          justifyContent: 'space-between',
          gap: '4',
          flexWrap: 'wrap',
          mb: '3',
        })}
      >
        <h3 className={sectionTitle}>History of {reward.code}</h3>
        <p className={muted} data-testid="ledger-balance">
          {giftcard ? `Balance ${formatNaira(reward.balance ?? 0)} · ` : ''}
          {reward.status}
        </p>
      </div>
      {entries.length === 0 ? (
        <p className={muted}>Nothing redeemed yet.</p>
      ) : (
        <div className={css({ overflowX: 'auto' })}>
          <table role="table" className={table} aria-label={`Ledger of ${reward.code}`}>
            <thead role="rowgroup">
              <tr role="row">
                <th>Date</th>
                <th>Entry</th>
                <th className={css({ textAlign: 'end!' })}>Amount</th>
                <th>By</th>
                <th>Reason</th>
                {canReverse ? <th aria-label="Action" /> : null}
              </tr>
            </thead>
            <tbody role="rowgroup">
              {entries.map((entry) => (
                <tr role="row" key={entry.id} data-entry-id={entry.id}>
                  <td role="cell" data-label="Date" className={css({ lg: { whiteSpace: 'nowrap' } })}>
                    {formatDateTime(entry.at)}
                  </td>
                  <td role="cell" data-label="Entry">
                    {KIND_LABELS[entry.kind]}
                    {entry.kind === 'REVERSAL' && entry.reversesId !== null ? (
                      <span className={muted}> of #{entry.reversesId}</span>
                    ) : null}
                    {entry.kind === 'REDEEM' ? <span className={muted}> #{entry.id}</span> : null}
                    {entry.reversedById !== null ? <span className={tag}>Reversed</span> : null}
                  </td>
                  <td
                    role="cell"
                    data-label="Amount"
                    className={css({ lg: { textAlign: 'end', whiteSpace: 'nowrap' } })}
                  >
                    {signedAmount(entry.amount, reward.rewardType)}
                  </td>
                  <td role="cell" data-label="By">
                    {entry.by?.name ?? '-'}
                  </td>
                  <td role="cell" data-label="Reason">
                    {entry.reason ?? '-'}
                  </td>
                  {canReverse ? (
                    <td role="cell" className={css({ lg: { textAlign: 'end' } })}>
                      {isReversible(entry) ? (
                        <Button size="sm" variant="outline" onClick={() => setReversing(entry)}>
                          Reverse
                        </Button>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {canReverse && reversing ? (
        <ReverseRedemptionDialog
          key={reversing.id}
          ledger={ledger.data}
          entry={reversing}
          onClose={() => setReversing(null)}
        />
      ) : null}
    </section>
  );
}

/**
 * The confirm dialog of a reversal, driven by the `reversal` machine (src/machines/reversal.machine.ts):
 * a reason is required, the network is required (offline it says so and sends nothing; never
 * queued), and one Idempotency-Key per attempt. On success it shows the restored balance and the new
 * reversal entry, and marks the reward queries stale.
 */
export function ReverseRedemptionDialog({
  ledger,
  entry,
  onClose,
}: {
  ledger: RewardLedger;
  entry: LedgerEntry;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const actorRef = useActorRef(
    reversalMachine.provide({
      actors: {
        reverseRedemption: fromPromise(async ({ input }: { input: ReversalRequest }) => {
          const outcome = await reverseRedemption(
            { ledgerEntryId: input.ledgerEntryId, reason: input.reason },
            input.idempotencyKey,
          );
          void queryClient.invalidateQueries({ queryKey: rewardKeys.all });
          void queryClient.invalidateQueries({ queryKey: statsKeys.all });
          return outcome;
        }),
      },
    }),
    { input: { ledgerEntryId: entry.id } },
  );
  useNetworkEvents(actorRef);
  const state = useSelector(actorRef, (s) => s.value);
  const c = useSelector(actorRef, (s) => s.context);
  useEffect(() => {
    if (state === 'cancelled') onClose();
  }, [state, onClose]);
  const { reward } = ledger;
  const done = c.outcome;
  const busy = state === 'reversing';
  const cancel = () => actorRef.send({ type: 'reversal.cancel' });

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (open || busy) return;
        if (done) onClose();
        else cancel();
      }}
      title={done ? TEXTS.reversal.done : 'Reverse redemption'}
      closable={!busy}
    >
      {done ? (
        <div data-testid="reversal-result">
          {/* The title already says the redemption is reversed: the status says what came back. */}
          <p role="status">
            {done.result.rewardType === 'GIFTCARD'
              ? `${formatNaira(done.result.amountReversed)} is back on the gift card.`
              : 'The coupon can be used again.'}
          </p>
          <dl
            className={css({
              display: 'grid',
              gridTemplateColumns: 'max-content 1fr',
              gap: '2',
              fontSize: 'sm',
              mt: '4',
            })}
          >
            <dt>Reward</dt>
            <dd>{done.result.code}</dd>
            {done.result.balance !== null ? (
              <>
                <dt>Balance restored to</dt>
                <dd>{formatNaira(done.result.balance)}</dd>
              </>
            ) : null}
            <dt>Status</dt>
            <dd>{done.result.status}</dd>
            <dt>Reversal entry</dt>
            <dd>
              #{done.result.ledgerEntryId}: {signedAmount(done.result.amountReversed, done.result.rewardType)}{' '}
              for #{done.result.reversedEntryId}, {formatDateTime(done.result.reversedAt)}
            </dd>
            <dt>Reason</dt>
            <dd>{done.result.reason}</dd>
          </dl>
          <div className={actions}>
            <Button onClick={onClose}>Done</Button>
          </div>
        </div>
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            actorRef.send({ type: 'reversal.submit' });
          }}
        >
          <p className={css({ fontSize: 'sm', mb: '4' })}>
            Give back{' '}
            {reward.rewardType === 'GIFTCARD' ? (
              <strong>{formatNaira(Math.abs(entry.amount))}</strong>
            ) : (
              'the coupon'
            )}{' '}
            redeemed on {formatDateTime(entry.at)}
            {entry.by ? ` by ${entry.by.name}` : ''} to <strong>{reward.code}</strong>? The ledger keeps both
            entries.
          </p>
          <TextField
            label="Reason"
            multiline
            required
            value={c.reason}
            error={c.reasonError ?? undefined}
            disabled={busy}
            onChange={(e) => actorRef.send({ type: 'reversal.reason', text: e.target.value })}
          />
          {!c.online ? (
            <p role="status" className={css({ fontSize: 'sm', color: 'fg.muted', mt: '3' })}>
              {TEXTS.reversal.offline}
            </p>
          ) : null}
          {c.error ? (
            <p role="alert" className={alert}>
              {c.error}
            </p>
          ) : null}
          <div className={actions}>
            <Button variant="outline" onClick={cancel} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} loadingText="Reversing">
              Confirm reversal
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
