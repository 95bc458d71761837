import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import type { AnyStateMachine } from 'xstate';
import { css } from '../../../styled-system/css';
import { flowStore } from '../../db/flow-store';
import { formatDate, formatNaira, fullName } from '../../lib/format';
import { useNetworkEvents } from '../../lib/use-network-events';
import {
  type GuidedProgress,
  type GuidedRedemptionActor,
  toGuidedProgress,
} from '../../machines/guided-redemption.machine';
import type { OtpActor } from '../../machines/otp.machine';
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

const card = css({ bg: 'bg.surface', borderRadius: 'lg', borderWidth: '1px', borderColor: 'border', p: '6' });
const row = css({ display: 'flex', gap: '2', alignItems: 'center', justifyContent: 'flex-end', mt: '6' });
const list = css({ display: 'flex', flexDir: 'column', gap: '2', mt: '4' });
const item = css({
  display: 'flex',
  justifyContent: 'space-between',
  alignItems: 'center',
  gap: '3',
  p: '3',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'md',
});

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
                    {reward.balance !== null
                      ? formatNaira(reward.balance)
                      : `${reward.percentageDiscount ?? 0}% off`}{' '}
                    · {reward.status}
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
        {value === 'confirm' || value === 'failed' ? (
          <>
            <p>
              Redeem <strong>{c.reward?.code}</strong>
              {c.reward?.rewardType === 'GIFTCARD'
                ? ` for ${formatNaira(Number(c.amountText))}`
                : ' (coupon, single use)'}{' '}
              for {fullName(c.customer?.firstName, c.customer?.lastName)}?
            </p>
            {error}
            <div className={row}>
              {back}
              {value === 'failed' ? (
                <Button onClick={() => send({ type: 'guided.retry' })}>Try again</Button>
              ) : (
                <Button onClick={() => send({ type: 'guided.confirm' })}>Confirm</Button>
              )}
            </div>
          </>
        ) : null}
        {value === 'receipt' && c.outcome ? (
          <>
            <h2 className={css({ fontWeight: 'semibold', mb: '3' })}>
              {c.outcome.message || 'Reward redeemed'}
            </h2>
            <dl
              className={css({
                display: 'grid',
                gridTemplateColumns: 'max-content 1fr',
                gap: '2',
                fontSize: 'sm',
              })}
            >
              <dt>Code</dt>
              <dd>{c.outcome.result.code}</dd>
              {c.outcome.result.amountRedeemed !== null ? (
                <>
                  <dt>Amount redeemed</dt>
                  <dd>{formatNaira(c.outcome.result.amountRedeemed)}</dd>
                </>
              ) : null}
              {c.outcome.result.balance !== null ? (
                <>
                  <dt>Balance left</dt>
                  <dd>{formatNaira(c.outcome.result.balance)}</dd>
                </>
              ) : null}
              <dt>Status</dt>
              <dd>{c.outcome.result.status}</dd>
              <dt>Date</dt>
              <dd>{formatDate(c.outcome.result.redeemedAt)}</dd>
            </dl>
            <div className={row}>
              {onFinished ? (
                <Button variant="outline" onClick={onFinished}>
                  Done
                </Button>
              ) : null}
              <Button onClick={() => send({ type: 'guided.restart' })}>Redeem another</Button>
            </div>
            <div className={css({ mt: '6', pt: '4', borderTopWidth: '1px', borderColor: 'border' })}>
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
