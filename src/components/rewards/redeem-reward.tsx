import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { AnyStateMachine } from 'xstate';
import { useNetworkEvents } from '../../lib/use-network-events';
import type { OtpActor } from '../../machines/otp.machine';
import type { RedeemableReward, RedeemOutcome } from '../../machines/redeem.machine';
import { Dialog } from '../ui/dialog';
import { notify } from '../ui/notify';
import { OTP_MODAL_TITLE, OtpModalBody } from './otp-modal';
import { liveRedeemMachine } from './redeem-effects';
import { isBusy, RedeemModalBody, redeemModalTitle } from './redeem-modal';

export interface RedeemRewardProps {
  reward: RedeemableReward;
  /** After success: the message is shown here; the caller closes and goes to /dashboard/rewards. */
  onRedeemed: (outcome: RedeemOutcome) => void;
  onClose: () => void;
  /** The redeem machine with its effects (tests pass fakes); the real calls by default. */
  machine?: AnyStateMachine;
}

/**
 * docs/product.md#states 'Redemption': sends the code, the OTP modal, then the Redeem modal (one dialog whose
 * content follows the flow); on success the
 * server's message is shown and `onRedeemed` runs (the caller navigates to /dashboard/rewards).
 */
export function RedeemReward({
  reward,
  onRedeemed,
  onClose,
  machine = liveRedeemMachine,
}: RedeemRewardProps) {
  const actor = useActorRef(machine as typeof liveRedeemMachine, { input: { reward } });
  useNetworkEvents(actor);
  const status = useSelector(actor, (s) => s.status);
  const state = useSelector(actor, (s) => s.value);
  const otp = useSelector(actor, (s) => s.children.otp as OtpActor | undefined);

  useEffect(() => {
    actor.send({ type: 'redeem.start' });
  }, [actor]);

  useEffect(() => {
    if (status !== 'done') return;
    const outcome = actor.getSnapshot().output;
    if (outcome) {
      notify.success(outcome.message || 'Reward redeemed');
      onRedeemed(outcome);
    } else {
      onClose();
    }
  }, [status, actor, onRedeemed, onClose]);

  if (status === 'done') return null;
  // One dialog for the whole flow: swapping dialogs would move focus out of the new one as the old
  // one unmounts, and the new one would take that for a dismissal.
  const entering = state === 'enteringCode' && otp;
  const busy = isBusy(state);
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && !busy && actor.send({ type: 'redeem.cancel' })}
      title={entering ? OTP_MODAL_TITLE : redeemModalTitle(reward.rewardType)}
      closable={!busy}
    >
      {entering ? <OtpModalBody actor={otp} /> : <RedeemModalBody actor={actor} />}
    </Dialog>
  );
}
