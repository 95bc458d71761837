import type { EventObject } from 'xstate';

/**
 * The oracle for the redeem flow (issue 30, decision 064): what the screen must do, written from
 * the product's rules (docs/product.md#redemption and #rewards, the Redeem modal of section 13),
 * not from src/machines/redeem.machine.ts. The product machine must conform to it
 * (redeem-conformance.test.ts): a step the machine skips or adds is a failure of the machine, not a
 * new expectation of the tests.
 *
 * The rules it holds:
 * - Redeem sends the customer a code (online only); the code sent opens the code entry; a code
 *   that was not sent can be sent again.
 * - The accepted code opens the Redeem modal: for a gift card the amount to redeem, for a coupon a
 *   confirmation. Nothing is redeemed by the code alone.
 * - A gift card is redeemed for the amount typed: more than 0, at most 2 decimals, at most its
 *   balance; any other amount keeps the modal with an error and sends nothing.
 * - A coupon is redeemed on Confirm. Money moves only online.
 * - The server's answer ends it: redeemed (done), or refused / no answer (failed, with Try again).
 */

export type OracleState =
  | 'idle'
  | 'sendingCode'
  | 'sendFailed'
  | 'enteringCode'
  | 'enteringAmount'
  | 'confirming'
  | 'redeeming'
  | 'failed'
  | 'done'
  | 'cancelled';

export interface OracleStart {
  rewardType: 'GIFTCARD' | 'COUPON';
  /** The gift card's balance (null: a coupon). */
  balance: number | null;
  online: boolean;
}

export interface OracleScreen {
  at: OracleState;
  online: boolean;
  amountText: string;
}

/** A valid amount to redeem from a balance (the product's rule). */
export const validAmount = (text: string, balance: number | null) =>
  /^\d+(\.\d{1,2})?$/.test(text.trim()) && Number(text) > 0 && (balance === null || Number(text) <= balance);

/**
 * The next screen after an event, by the rules above; null where the rules above say nothing (the
 * oracle has no opinion: e.g. what a lost answer's later retry does is decision 030's, checked by
 * the model tests).
 */
export function oracleNext(
  start: OracleStart,
  s: OracleScreen,
  event: EventObject & Record<string, unknown>,
): OracleScreen | null {
  const to = (at: OracleState): OracleScreen => ({ ...s, at });
  if (event.type === 'network.offline') return { ...s, online: false };
  if (event.type === 'network.online') return { ...s, online: true };
  switch (s.at) {
    case 'idle':
      if (event.type === 'redeem.start') return s.online ? to('sendingCode') : s;
      return null;
    case 'sendingCode':
      if (event.type === 'xstate.done.actor.sendCode') return to('enteringCode');
      if (event.type === 'xstate.error.actor.sendCode') return to('sendFailed');
      return null;
    case 'enteringCode':
      // The accepted code: the amount for a gift card, a confirmation for a coupon.
      if (event.type === 'xstate.done.actor.otp')
        return to(start.rewardType === 'GIFTCARD' ? 'enteringAmount' : 'confirming');
      if (event.type === 'redeem.cancel') return to('cancelled');
      return null;
    case 'enteringAmount':
      if (event.type === 'redeem.amount') return { ...s, amountText: String(event.text) };
      if (event.type === 'redeem.submit')
        return s.online && validAmount(s.amountText, start.balance) ? to('redeeming') : s;
      if (event.type === 'redeem.cancel') return to('cancelled');
      return null;
    case 'confirming':
      if (event.type === 'redeem.confirm') return s.online ? to('redeeming') : s;
      if (event.type === 'redeem.cancel') return to('cancelled');
      return null;
    case 'redeeming':
      if (event.type === 'xstate.done.actor.redeemReward') return to('done');
      return null;
    default:
      return null;
  }
}
