import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import type { AnyStateMachine } from 'xstate';
import type { Reward } from '../../../contract/rewards';
import { css } from '../../../styled-system/css';
import { flowStore } from '../../db/flow-store';
import { formatDateTime, formatNaira, fullName } from '../../lib/format';
import { useNetworkEvents } from '../../lib/use-network-events';
import {
  type GuidedContext,
  type GuidedProgress,
  type GuidedRedemptionActor,
  toGuidedProgress,
} from '../../machines/guided-redemption.machine';
import type { OtpActor } from '../../machines/otp.machine';
import type { RedeemOutcome } from '../../machines/redeem.machine';
import { LinkCustomer } from '../link-customer';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { Spinner } from '../ui/spinner';
import { OtpInput } from './otp-input';
import { liveGuidedRedemptionMachine } from './redeem-effects';
import { RewardLedgerPanel } from './reward-ledger';

const STEPS = [
  ['findCustomer', 'Find customer'],
  ['pickReward', 'Pick reward'],
  ['sendCode', 'Send code'],
  ['enterCode', 'Enter code'],
  ['amount', 'Amount'],
  ['confirm', 'Confirm'],
  ['receipt', 'Receipt'],
] as const;

const card = css({
  bg: 'bg.surface',
  borderRadius: 'lg',
  borderWidth: '1px',
  borderColor: 'border.default',
  p: { base: '4', md: '6' },
});
/** A step's buttons: they wrap onto a second line on a phone rather than be cut (issue 32). */
const row = css({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '2',
  alignItems: 'center',
  justifyContent: 'flex-end',
  mt: '6',
});
const list = css({ display: 'flex', flexDir: 'column', gap: '2', mt: '4' });
const facts = css({
  display: 'grid',
  gridTemplateColumns: 'max-content 1fr',
  gap: '2',
  columnGap: '4',
  fontSize: 'sm',
  '& dt': { color: 'fg.muted' },
  '& dd': { fontWeight: 'medium', overflowWrap: 'anywhere' },
});
const item = css({
  display: 'flex',
  justifyContent: 'space-between',
  alignItems: 'center',
  gap: '3',
  p: '3',
  layerStyle: 'outlined',
});

/** '10% off' (a coupon), '10% off the fiber subscription' (a discounted subscription). */
const discountText = (reward: Reward) =>
  `${reward.percentageDiscount ?? 0}% off${reward.rewardTypeCategory === 'DISCOUNTED_SUBSCRIPTION' ? ' the fiber subscription' : ''}`;

/** 'Weekend treat (GC-7QK2), gift card' */
const rewardName = (reward: Reward) =>
  `${reward.title} (${reward.code}), ${reward.rewardType === 'GIFTCARD' ? 'gift card' : 'coupon'}`;

/** The redemption's reference on the receipt: its ledger entry (or the reward when there is none). */
export const receiptReference = (result: RedeemOutcome['result']) =>
  `RC-${result.rewardId}-${result.ledgerEntryId ?? 0}`;

/** The receipt: who, where, what, how much, what is left, when, and a reference to quote. */
function RedemptionReceipt({ context: c, outcome }: { context: GuidedContext; outcome: RedeemOutcome }) {
  const { result } = outcome;
  return (
    <dl className={facts} aria-label="Receipt">
      <dt>Partner</dt>
      <dd>{c.reward?.partner.organizationName ?? ''}</dd>
      <dt>Customer</dt>
      <dd>{fullName(c.customer?.firstName, c.customer?.lastName)}</dd>
      <dt>Reward</dt>
      <dd>{c.reward ? rewardName(c.reward) : result.code}</dd>
      {result.amountRedeemed !== null ? (
        <>
          <dt>Amount redeemed</dt>
          <dd>{formatNaira(result.amountRedeemed)}</dd>
        </>
      ) : c.reward ? (
        <>
          <dt>Discount</dt>
          <dd>{discountText(c.reward)}</dd>
        </>
      ) : null}
      <dt>Balance left</dt>
      <dd>{result.balance !== null ? formatNaira(result.balance) : 'None (single use)'}</dd>
      <dt>Status</dt>
      <dd>{result.status}</dd>
      <dt>Time</dt>
      <dd>{formatDateTime(result.redeemedAt)}</dd>
      <dt>Reference</dt>
      <dd>{receiptReference(result)}</dd>
    </dl>
  );
}

export interface GuidedRedemptionProps {
  partnerId: number;
  /** After the receipt: where to go next (e.g. /dashboard/rewards). */
  onFinished?: () => void;
  machine?: AnyStateMachine;
}

/**
 * Guided redemption for partner staff. Its progress is stored in IndexedDB after every step and
 * resumed on load (the one-time code is never stored), so a reload keeps the place.
 */
export function GuidedRedemption({
  partnerId,
  onFinished,
  machine = liveGuidedRedemptionMachine,
}: GuidedRedemptionProps) {
  const actor = useActorRef(machine as typeof liveGuidedRedemptionMachine, { input: { partnerId } });
  useNetworkEvents(actor);
  useEffect(() => {
    const store = flowStore();
    const id = `guided-redemption:partner-${partnerId}`;
    let live = true;
    const subscription = actor.subscribe((snapshot) => {
      if (!snapshot.matches('restoring')) void store.save(id, toGuidedProgress(snapshot));
    });
    void store
      .load<GuidedProgress>(id)
      .catch(() => null)
      .then((progress) => live && actor.send({ type: 'guided.resume', progress }));
    return () => {
      live = false;
      subscription.unsubscribe();
    };
  }, [actor, partnerId]);
  return <GuidedSteps actor={actor} onFinished={onFinished} />;
}

function GuidedSteps({
  actor,
  onFinished,
}: {
  actor: GuidedRedemptionActor;
  onFinished?: (() => void) | undefined;
}) {
  const value = String(useSelector(actor, (s) => s.value));
  const c = useSelector(actor, (s) => s.context);
  const otp = useSelector(actor, (s) => s.children.otp as OtpActor | undefined);
  const [search, setSearch] = useState(c.search);
  const step = toGuidedProgress({ value, context: c })?.step;
  const send = actor.send;
  const back = (
    <Button variant="outline" onClick={() => send({ type: 'guided.back' })}>
      Back
    </Button>
  );
  const error = c.error ? (
    <p role="alert" className={css({ color: 'fg.error', fontSize: 'sm', mt: '3' })}>
      {c.error}
    </p>
  ) : null;
  const busy = ['restoring', 'searching', 'loadingRewards', 'sendingCode', 'redeeming'].includes(value);

  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '4', maxW: '2xl' })}>
      <ol aria-label="Steps" className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', fontSize: 'xs' })}>
        {STEPS.map(([key, label], i) => (
          <li
            key={key}
            aria-current={step === key ? 'step' : undefined}
            className={css({
              px: '2',
              py: '1',
              borderRadius: 'full',
              bg: step === key ? 'brand.700' : 'bg.subtle',
              color: step === key ? 'fg.onBrand' : 'fg.muted',
            })}
          >
            {i + 1}. {label}
          </li>
        ))}
      </ol>
      <section className={card} aria-busy={busy}>
        {busy ? <Spinner label={value === 'redeeming' ? 'Redeeming' : 'Loading'} /> : null}
        {value === 'findCustomer' ? (
          <>
            <form
              onSubmit={(e) => {
                e.preventDefault();
                send({ type: 'guided.search', text: search });
              }}
              className={css({ display: 'flex', gap: '2', alignItems: 'flex-end' })}
            >
              <TextField
                label="Customer name or email"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
              />
              <Button type="submit">Search</Button>
            </form>
            {error}
            {c.search.trim() && c.customers.length === 0 && !c.error ? (
              <p role="status" className={css({ mt: '4', color: 'fg.muted' })}>
                No customer matches '{c.search.trim()}'
              </p>
            ) : null}
            {c.search.trim() && c.customers.length === 0 && !c.error ? (
              <div className={css({ mt: '3' })}>
                <LinkCustomer
                  key={c.search.trim()}
                  partnerId={c.partnerId}
                  asked={c.search.trim()}
                  onLinked={(link) => send({ type: 'guided.pickCustomer', customer: link.customer })}
                />
              </div>
            ) : null}
            <ul className={list} aria-label="Customers">
              {c.customers.map((customer) => (
                <li key={customer.id} className={item}>
                  <span>
                    {fullName(customer.firstName, customer.lastName)}{' '}
                    <span className={css({ color: 'fg.muted' })}>{customer.email}</span>
                  </span>
                  <Button size="sm" onClick={() => send({ type: 'guided.pickCustomer', customer })}>
                    Choose
                  </Button>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {value === 'pickReward' ? (
          <>
            <h2 className={css({ fontWeight: 'semibold' })}>
              Rewards of {fullName(c.customer?.firstName, c.customer?.lastName)}
            </h2>
            {error}
            {c.rewards.length === 0 && !c.error ? <p>No rewards at this partner.</p> : null}
            <ul className={list} aria-label="Rewards">
              {c.rewards.map((reward) => (
                <li key={reward.id} className={item}>
                  <span>
                    <strong>{reward.code}</strong> ·{' '}
                    {reward.rewardType === 'GIFTCARD' ? 'Gift card' : 'Coupon'} ·{' '}
                    {reward.balance !== null ? formatNaira(reward.balance) : discountText(reward)} ·{' '}
                    {reward.status}
                  </span>
                  <Button
                    size="sm"
                    disabled={reward.status !== 'Active'}
                    onClick={() => send({ type: 'guided.pickReward', rewardId: reward.id })}
                  >
                    Choose
                  </Button>
                </li>
              ))}
            </ul>
            <div className={row}>
              {back}
              {c.error ? <Button onClick={() => send({ type: 'guided.retry' })}>Try again</Button> : null}
            </div>
          </>
        ) : null}
        {value === 'sendCode' ? (
          <>
            <p>
              Send {fullName(c.customer?.firstName, c.customer?.lastName)} a one-time code for{' '}
              <strong>{c.reward?.code}</strong>.
            </p>
            {error}
            <div className={row}>
              {back}
              <Button onClick={() => send({ type: 'guided.sendCode' })}>Send code</Button>
            </div>
          </>
        ) : null}
        {value === 'enterCode' && otp ? (
          <>
            <p className={css({ mb: '4', fontSize: 'sm', color: 'fg.muted' })}>
              Ask the customer for the 6-digit code{c.sentTo ? ` sent to ${c.sentTo}` : ''}.
            </p>
            <OtpInput actor={otp} />
            <div className={row}>{back}</div>
          </>
        ) : null}
        {value === 'amount' ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              send({ type: 'guided.next' });
            }}
          >
            <p className={css({ mb: '3', fontSize: 'sm' })}>Balance {formatNaira(c.reward?.balance ?? 0)}</p>
            <TextField
              label="Amount to redeem"
              inputMode="decimal"
              value={c.amountText}
              error={c.amountError ?? undefined}
              onChange={(e) => send({ type: 'guided.amount', text: e.target.value })}
            />
            <div className={row}>
              {back}
              <Button type="submit">Next</Button>
            </div>
          </form>
        ) : null}
        {value === 'confirm' || value === 'failed' || value === 'reenterCode' ? (
          <>
            <h2 className={css({ fontWeight: 'semibold', mb: '3' })}>Check before redeeming</h2>
            <dl className={facts} aria-label="Redemption">
              <dt>Customer</dt>
              <dd>{fullName(c.customer?.firstName, c.customer?.lastName)}</dd>
              <dt>Reward</dt>
              <dd>{c.reward ? rewardName(c.reward) : ''}</dd>
              {c.reward?.rewardType === 'GIFTCARD' ? (
                <>
                  <dt>Amount</dt>
                  <dd>{formatNaira(Number(c.amountText))}</dd>
                  <dt>Balance after</dt>
                  <dd>{formatNaira((c.reward.balance ?? 0) - Number(c.amountText))}</dd>
                </>
              ) : c.reward ? (
                <>
                  <dt>Discount</dt>
                  <dd>{discountText(c.reward)}</dd>
                  <dt>Use</dt>
                  <dd>Single use: the coupon is redeemed after this</dd>
                </>
              ) : null}
            </dl>
            <p className={css({ mt: '4' })}>
              Redeem <strong>{c.reward?.code}</strong>
              {c.reward?.rewardType === 'GIFTCARD'
                ? ` for ${formatNaira(Number(c.amountText))}`
                : ` for ${c.reward ? discountText(c.reward) : ''} (coupon, single use)`}{' '}
              for {fullName(c.customer?.firstName, c.customer?.lastName)}?
            </p>
            {value === 'reenterCode' && otp ? (
              <div className={css({ mt: '4' })}>
                <p className={css({ mb: '4', fontSize: 'sm', color: 'fg.muted' })}>
                  The code is not kept when the page reloads. Ask the customer for the 6-digit code
                  {c.sentTo ? ` sent to ${c.sentTo}` : ''} again to confirm.
                </p>
                <OtpInput actor={otp} />
              </div>
            ) : null}
            {error}
            <div className={row}>
              {back}
              {value === 'failed' ? (
                <Button onClick={() => send({ type: 'guided.retry' })}>Try again</Button>
              ) : value === 'confirm' ? (
                <Button onClick={() => send({ type: 'guided.confirm' })}>Confirm</Button>
              ) : null}
            </div>
          </>
        ) : null}
        {value === 'receipt' && c.outcome ? (
          <>
            <div data-print-root="">
              <h2 className={css({ fontWeight: 'semibold', mb: '3' })}>
                {c.outcome.message || 'Reward redeemed'}
              </h2>
              <RedemptionReceipt context={c} outcome={c.outcome} />
            </div>
            <div className={row} data-print-hide="">
              <Button variant="outline" onClick={() => window.print()}>
                Print receipt
              </Button>
              {onFinished ? (
                <Button variant="outline" onClick={onFinished}>
                  Done
                </Button>
              ) : null}
              <Button onClick={() => send({ type: 'guided.restart' })}>Redeem another</Button>
            </div>
            <div
              data-print-hide=""
              className={css({ mt: '6', pt: '4', borderTopWidth: '1px', borderColor: 'border.default' })}
            >
              <RewardLedgerPanel rewardId={c.outcome.result.rewardId} />
            </div>
          </>
        ) : null}
      </section>
      {value !== 'findCustomer' && value !== 'restoring' && value !== 'receipt' ? (
        <div>
          <Button variant="ghost" size="sm" onClick={() => send({ type: 'guided.restart' })}>
            Start over
          </Button>
        </div>
      ) : null}
    </div>
  );
}
