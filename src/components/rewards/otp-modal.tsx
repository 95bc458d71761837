import { useSelector } from '@xstate/react';
import { css } from '../../../styled-system/css';
import type { OtpActor } from '../../machines/otp.machine';
import { OtpInput } from './otp-input';

export const OTP_MODAL_TITLE = "Enter the customer's code";

/** The OTP modal's content (where the code went, the six boxes), for the dialog of RedeemReward. */
export function OtpModalBody({ actor }: { actor: OtpActor }) {
  const sentTo = useSelector(actor, (s) => s.context.sentTo);
  return (
    <>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '4' })}>
        {sentTo
          ? `We sent a 6-digit code to ${sentTo}. Ask the customer for it.`
          : 'Ask the customer for the 6-digit code we sent them.'}
      </p>
      <OtpInput actor={actor} />
    </>
  );
}
