import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef } from 'react';
import { OTP_LENGTH } from '../../../contract/redemption';
import { css } from '../../../styled-system/css';
import { isOtpComplete, type OtpActor } from '../../machines/otp.machine';
import { Button } from '../ui/button';

const boxClass = css({
  // Six boxes share the row: 2.75rem each where there is room, narrower on a 375 px phone.
  flex: '1 1 0',
  minW: '0',
  maxW: '11',
  h: '12',
  textAlign: 'center',
  fontSize: 'xl',
  fontWeight: 'semibold',
  borderRadius: 'md',
  borderWidth: '1px',
  borderColor: 'border.strong',
  bg: 'bg.surface',
  color: 'fg.default',
  outline: 'none',
  _focus: { borderColor: 'brand.600', boxShadow: '0 0 0 3px token(colors.brand.100)' },
  _invalid: { borderColor: 'red.500' },
  _disabled: { opacity: 0.6 },
});

/**
 * docs/product.md#screens 'Modals', OTP entry: six single-digit numeric boxes with auto-advance; Backspace
 * moves back; pasting six digits fills them; Submit is enabled only when all six are filled.
 * Driven by an `otp` actor: the component sends events and holds no flow logic.
 */
export function OtpInput({ actor }: { actor: OtpActor }) {
  const digits = useSelector(actor, (s) => s.context.digits);
  const focusIndex = useSelector(actor, (s) => s.context.focusIndex);
  const error = useSelector(actor, (s) => s.context.error);
  const notice = useSelector(actor, (s) => s.context.notice);
  const entering = useSelector(actor, (s) => s.matches('entering'));
  const busy = useSelector(actor, (s) => s.matches('checking') || s.matches('resending'));
  const locked = useSelector(actor, (s) => s.matches('locked'));
  const complete = isOtpComplete({ digits });
  const boxes = useRef<Array<HTMLInputElement | null>>([]);
  const messageId = useId();

  useEffect(() => {
    if (entering) boxes.current[focusIndex]?.focus();
  }, [focusIndex, entering]);

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'otp.submit' });
      }}
      className={css({ display: 'flex', flexDir: 'column', gap: '4' })}
    >
      <fieldset
        aria-label="One-time code"
        className={css({
          display: 'flex',
          gap: '2',
          justifyContent: 'center',
          border: 'none',
          p: '0',
          m: '0',
        })}
      >
        {Array.from({ length: OTP_LENGTH }, (_, index) => (
          <input
            // biome-ignore lint/suspicious/noArrayIndexKey: the six boxes are fixed positions
            key={index}
            ref={(el) => {
              boxes.current[index] = el;
            }}
            className={boxClass}
            type="text"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete={index === 0 ? 'one-time-code' : 'off'}
            aria-label={`Digit ${index + 1} of ${OTP_LENGTH}`}
            aria-invalid={Boolean(error) && !digits[index]}
            // The wrong-code message (or the notice) is read again with whichever box has the focus.
            aria-describedby={error || notice ? messageId : undefined}
            disabled={!entering}
            value={digits[index] ?? ''}
            onChange={(e) => actor.send({ type: 'otp.digit', index, value: e.target.value.slice(-1) })}
            onKeyDown={(e) => {
              if (e.key === 'Backspace') {
                e.preventDefault();
                actor.send({ type: 'otp.backspace', index });
              }
            }}
            onPaste={(e) => {
              e.preventDefault();
              actor.send({ type: 'otp.paste', text: e.clipboardData.getData('text') });
            }}
            onFocus={() => {
              if (index !== focusIndex) actor.send({ type: 'otp.focus', index });
            }}
          />
        ))}
      </fieldset>
      {error ? (
        <p
          id={messageId}
          role="alert"
          className={css({ color: 'fg.error', fontSize: 'xs', textAlign: 'center' })}
        >
          {error}
        </p>
      ) : notice ? (
        <p
          id={messageId}
          role="status"
          className={css({ color: 'fg.muted', fontSize: 'xs', textAlign: 'center' })}
        >
          {notice}
        </p>
      ) : null}
      <div
        className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '2' })}
      >
        <Button variant="ghost" size="sm" disabled={busy} onClick={() => actor.send({ type: 'otp.resend' })}>
          Send a new code
        </Button>
        <Button
          type="submit"
          loading={busy}
          loadingText="Checking"
          disabled={!busy && (!complete || locked || !entering)}
        >
          Submit
        </Button>
      </div>
    </form>
  );
}
