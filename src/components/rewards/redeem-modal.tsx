import { useSelector } from '@xstate/react';
import { css } from '../../../styled-system/css';
import { formatNaira } from '../../lib/format';
import type { RedeemActor } from '../../machines/redeem.machine';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { Spinner } from '../ui/spinner';

const actions = css({ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: '2', mt: '6' });
const alert = css({ color: 'fg.error', fontSize: 'sm', mt: '3' });

export const redeemModalTitle = (rewardType: 'GIFTCARD' | 'COUPON') =>
  rewardType === 'GIFTCARD' ? 'Redeem gift card' : 'Redeem coupon';

/** Sending the code or redeeming: the modal cannot be closed meanwhile. */
export const isBusy = (state: unknown) => state === 'sendingCode' || state === 'redeeming';

/**
 * The Redeem Reward modal's content (docs/product.md#screens), for the dialog of RedeemReward that also hosts
 * the OTP step: a gift card asks for the amount (digits with up to two decimals, at most the
 * balance), a coupon for a confirmation. Also shows sending, failure and retry.
 */
export function RedeemModalBody({ actor }: { actor: RedeemActor }) {
  const state = useSelector(actor, (s) => s.value);
  const context = useSelector(actor, (s) => s.context);
  const { reward } = context;
  const cancel = () => actor.send({ type: 'redeem.cancel' });
  const busy = isBusy(state);

  return (
    <>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        Code <strong>{reward.code}</strong>
        {reward.balance !== null ? <> · balance {formatNaira(reward.balance)}</> : null}
      </p>
      {state === 'enteringAmount' ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            actor.send({ type: 'redeem.submit' });
          }}
          className={css({ mt: '4' })}
        >
          <TextField
            label="Amount to redeem"
            inputMode="decimal"
            autoComplete="off"
            value={context.amountText}
            error={context.amountError ?? undefined}
            onChange={(e) => actor.send({ type: 'redeem.amount', text: e.target.value })}
          />
          {context.error ? (
            <p role="alert" className={alert}>
              {context.error}
            </p>
          ) : null}
          <div className={actions}>
            <Button variant="outline" onClick={cancel}>
              Cancel
            </Button>
            <Button type="submit">Redeem</Button>
          </div>
        </form>
      ) : null}
      {state === 'confirming' ? (
        <div className={css({ mt: '4' })}>
          <p className={css({ fontSize: 'sm' })}>Redeem this coupon now? It can be used once.</p>
          {context.error ? (
            <p role="alert" className={alert}>
              {context.error}
            </p>
          ) : null}
          <div className={actions}>
            <Button variant="outline" onClick={cancel}>
              Cancel
            </Button>
            <Button onClick={() => actor.send({ type: 'redeem.confirm' })}>Redeem</Button>
          </div>
        </div>
      ) : null}
      {busy ? (
        <div className={css({ display: 'flex', justifyContent: 'center', py: '6' })}>
          <Spinner label={state === 'redeeming' ? 'Redeeming' : 'Sending the code'} />
        </div>
      ) : null}
      {state === 'failed' || state === 'sendFailed' || state === 'idle' ? (
        <div className={css({ mt: '4' })}>
          {context.error ? (
            <p role="alert" className={alert}>
              {context.error}
            </p>
          ) : null}
          <div className={actions}>
            <Button variant="outline" onClick={cancel}>
              Cancel
            </Button>
            {state === 'failed' ? (
              <Button variant="outline" onClick={() => actor.send({ type: 'redeem.back' })}>
                Back
              </Button>
            ) : null}
            <Button onClick={() => actor.send({ type: state === 'idle' ? 'redeem.start' : 'redeem.retry' })}>
              Try again
            </Button>
          </div>
        </div>
      ) : null}
    </>
  );
}
