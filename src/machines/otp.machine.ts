import { type ActorRefFrom, assign, fromPromise, not, setup } from 'xstate';
import { OTP_LENGTH, OTP_LOCKED_MESSAGE } from '../../contract/redemption';
import { rewardMessages } from '../../contract/rewards';
import { attemptsLeftOf, errorStatus, errorText, fieldMessage, serverMessage } from '../lib/error-message';
import { type NetworkEvent, startsOnline } from './flow-support';

/**
 * The one-time code of a redemption (docs/product.md#screens 'Modals'): six single-digit boxes, auto-advance,
 * backspace moves back, a pasted six-digit code fills them, Submit only when all six are filled.
 * The code is checked with the `checkOtp` actor; `sendCode` sends a new one. Needs the network.
 */

export interface OtpInput {
  userId: number;
  /** The reward code the one-time code is for (a resend names it). */
  code: string;
  /** Where the last code went (shown as a hint). */
  sentTo?: string | null;
  online?: boolean;
}

export interface OtpContext {
  userId: number;
  code: string;
  digits: string[];
  /** The box that should hold the focus. */
  focusIndex: number;
  error: string | null;
  notice: string | null;
  attemptsLeft: number | null;
  sentTo: string | null;
  online: boolean;
}

export type OtpEvent =
  | { type: 'otp.digit'; index: number; value: string }
  | { type: 'otp.backspace'; index: number }
  | { type: 'otp.paste'; text: string }
  | { type: 'otp.focus'; index: number }
  | { type: 'otp.submit' }
  | { type: 'otp.resend' }
  | NetworkEvent;

export interface OtpCheck {
  valid: true;
  attemptsLeft: number;
}
export interface CodeSent {
  expiresAt: string;
  sentTo: string;
}
export interface OtpOutput {
  otp: string;
}

export const LOCKED_MESSAGE = OTP_LOCKED_MESSAGE;

const emptyDigits = (): string[] => Array.from({ length: OTP_LENGTH }, () => '');
const clampIndex = (index: number) => Math.min(Math.max(Math.trunc(index) || 0, 0), OTP_LENGTH - 1);
/** A pasted code: six ASCII digits once spaces and dashes are dropped ('123 456', '123-456'). */
export const pastedCode = (text: string): string | null => {
  const compact = text.replace(/[\s-]/g, '');
  return /^[0-9]{6}$/.test(compact) ? compact : null;
};
export const otpOf = (context: Pick<OtpContext, 'digits'>): string => context.digits.join('');
export const isOtpComplete = (context: Pick<OtpContext, 'digits'>): boolean =>
  context.digits.every((d) => /^[0-9]$/.test(d));

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is not provided`));

export const otpMachine = setup({
  types: {
    context: {} as OtpContext,
    events: {} as OtpEvent,
    input: {} as OtpInput,
    output: {} as OtpOutput,
  },
  actors: {
    checkOtp: fromPromise<OtpCheck, { userId: number; otp: string; code: string }>(notProvided('checkOtp')),
    sendCode: fromPromise<CodeSent, { userId: number; code: string }>(notProvided('sendCode')),
  },
  actions: {
    typeDigit: assign(({ context, event }) => {
      if (event.type !== 'otp.digit') return {};
      const index = clampIndex(event.index);
      const digits = context.digits.map((d, i) => (i === index ? event.value : d));
      return { digits, focusIndex: clampIndex(index + 1), error: null };
    }),
    eraseDigit: assign(({ context, event }) => {
      if (event.type !== 'otp.backspace') return {};
      const index = clampIndex(event.index);
      // A filled box is cleared; an empty one clears the box before it. Either way focus moves back.
      const target = context.digits[index] ? index : clampIndex(index - 1);
      const digits = context.digits.map((d, i) => (i === target ? '' : d));
      return { digits, focusIndex: clampIndex(index - 1), error: null };
    }),
    fillPasted: assign(({ event }) => {
      const code = event.type === 'otp.paste' ? pastedCode(event.text) : null;
      return code ? { digits: code.split(''), focusIndex: OTP_LENGTH - 1, error: null } : {};
    }),
    moveFocus: assign({
      focusIndex: ({ event }) => (event.type === 'otp.focus' ? clampIndex(event.index) : 0),
    }),
    refuseOffline: assign({ error: rewardMessages.networkRequired, notice: null }),
    clearMessages: assign({ error: null, notice: null }),
    showError: assign({ error: ({ event }) => errorText((event as { error?: unknown }).error) }),
  },
  guards: {
    isDigit: ({ event }) => event.type === 'otp.digit' && /^[0-9]$/.test(event.value),
    isSixDigitPaste: ({ event }) => event.type === 'otp.paste' && pastedCode(event.text) !== null,
    isComplete: ({ context }) => isOtpComplete(context),
    isOffline: ({ context }) => !context.online,
    isLocked: ({ event }) => errorStatus((event as { error?: unknown }).error) === 429,
    hadNoAttemptsLeft: ({ context }) => context.attemptsLeft === 0,
    isWrongCode: ({ event }) => errorStatus((event as { error?: unknown }).error) === 400,
  },
}).createMachine({
  id: 'otp',
  context: ({ input }) => ({
    userId: input.userId,
    code: input.code,
    digits: emptyDigits(),
    focusIndex: 0,
    error: null,
    notice: null,
    attemptsLeft: null,
    sentTo: input.sentTo ?? null,
    online: startsOnline(input.online),
  }),
  initial: 'entering',
  on: {
    'network.offline': { actions: assign({ online: false }) },
    'network.online': { actions: assign({ online: true }) },
  },
  states: {
    entering: {
      on: {
        // Anything but one ASCII digit is ignored; a digit fills the box and moves on.
        'otp.digit': { guard: 'isDigit', actions: 'typeDigit' },
        'otp.backspace': { actions: 'eraseDigit' },
        'otp.paste': { guard: 'isSixDigitPaste', actions: 'fillPasted' },
        'otp.focus': { actions: 'moveFocus' },
        'otp.submit': [
          { guard: not('isComplete') },
          { guard: 'isOffline', actions: 'refuseOffline' },
          { target: 'checking', actions: 'clearMessages' },
        ],
        'otp.resend': [
          { guard: 'isOffline', actions: 'refuseOffline' },
          { target: 'resending', actions: 'clearMessages' },
        ],
      },
    },
    checking: {
      invoke: {
        id: 'checkOtp',
        src: 'checkOtp',
        // The reward's code too: a customer may hold live codes for several rewards (issue 16).
        input: ({ context }) => ({ userId: context.userId, otp: otpOf(context), code: context.code }),
        onDone: {
          target: 'valid',
          actions: assign({ attemptsLeft: ({ event }) => event.output.attemptsLeft }),
        },
        onError: [
          {
            // Too many wrong codes, for this code or (decision 013) for this staff member or address:
            // the server's message says which and for how long.
            guard: 'isLocked',
            target: 'locked',
            actions: assign({
              digits: emptyDigits,
              focusIndex: 0,
              attemptsLeft: 0,
              error: ({ event }) => serverMessage(event.error, 'otp') ?? LOCKED_MESSAGE,
            }),
          },
          {
            // A wrong code: the boxes are cleared for the next try.
            guard: 'isWrongCode',
            target: 'entering',
            actions: assign({
              digits: emptyDigits,
              focusIndex: 0,
              error: ({ event }) => fieldMessage(event.error, 'otp'),
              attemptsLeft: ({ event }) => attemptsLeftOf(event.error),
            }),
          },
          // Anything else (network, server): the digits stay so Submit can be tried again.
          { target: 'entering', actions: 'showError' },
        ],
      },
    },
    resending: {
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        input: ({ context }) => ({ userId: context.userId, code: context.code }),
        onDone: {
          target: 'entering',
          actions: assign({
            digits: emptyDigits,
            focusIndex: 0,
            attemptsLeft: null,
            sentTo: ({ event }) => event.output.sentTo,
            notice: ({ event }) => `A new code was sent to ${event.output.sentTo}.`,
          }),
        },
        onError: [
          // A failed resend from the locked state stays locked (attemptsLeft 0 means no tries left).
          { guard: 'hadNoAttemptsLeft', target: 'locked', actions: 'showError' },
          { target: 'entering', actions: 'showError' },
        ],
      },
    },
    // Too many wrong codes: only a new code helps (the server caps codes per day).
    locked: {
      on: {
        'otp.resend': [
          { guard: 'isOffline', actions: 'refuseOffline' },
          { target: 'resending', actions: 'clearMessages' },
        ],
      },
    },
    valid: { type: 'final' },
  },
  output: ({ context }) => ({ otp: otpOf(context) }),
});

export type OtpActor = ActorRefFrom<typeof otpMachine>;
