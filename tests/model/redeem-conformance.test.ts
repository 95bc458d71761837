import { describe, expect, it } from 'vitest';
import { type AnyMachineSnapshot, type EventObject, getInitialSnapshot, getNextSnapshot } from 'xstate';
import { type RedeemContext, redeemMachine } from '../../src/machines/redeem.machine';
import { codeSent, flowPathsOf, redeemedCoupon, redeemedGiftcard, redeemModel, THE_CODE } from './flow-paths';
import { type OracleScreen, type OracleStart, oracleNext } from './redeem-oracle';

/**
 * Issue 30: the redeem machine conforms to the oracle written from the product's rules
 * (redeem-oracle.ts), both ways. Every path generated from the machine is read by the oracle: at
 * each step where the rules say what comes next, the machine must be there. And the oracle's own
 * paths (the gift card's and the coupon's redemption) are walked on the machine. A step missing in
 * the machine (a gift card that skips the amount) fails here, whatever the machine's own paths say.
 */

type Start = { reward: { rewardType: 'GIFTCARD' | 'COUPON'; balance: number | null }; online: boolean };
const oracleStart = (input: unknown): OracleStart => {
  const { reward, online } = input as Start;
  return { rewardType: reward.rewardType, balance: reward.balance, online };
};
const screenOf = (s: AnyMachineSnapshot): OracleScreen => {
  const c = s.context as RedeemContext;
  return { at: String(s.value) as OracleScreen['at'], online: c.online, amountText: c.amountText };
};

describe('redeem machine ⟶ oracle: every generated path keeps to the product rules', () => {
  // The lost-answer start (decision 030: the open attempt is sent first) is outside these rules.
  const paths = flowPathsOf(redeemModel).filter(
    (p) => !(p.start.input as { openAttempt: unknown }).openAttempt,
  );
  it.each(paths.map((p, i) => [i + 1, p.title, p] as const))('%i. %s', (_n, _title, path) => {
    const start = oracleStart(path.start.input);
    let screen = screenOf(path.initial);
    for (const step of path.steps) {
      const expected = oracleNext(start, screen, step.event as EventObject & Record<string, unknown>);
      const actual = screenOf(step.state);
      if (expected) expect(actual.at, `after "${step.description}" (from ${screen.at})`).toBe(expected.at);
      // Where the rules say nothing, the oracle follows the machine.
      screen = expected ?? actual;
    }
  });
});

describe('oracle ⟶ redeem machine: the rules’ own paths are walked by the machine', () => {
  const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output });
  const cases = [
    {
      name: 'a gift card: the code, then the amount, then redeemed',
      start: redeemModel.starts[0]?.input,
      events: [
        { type: 'redeem.start' },
        done('sendCode', codeSent),
        done('otp', { otp: THE_CODE }),
        { type: 'redeem.amount', text: '250' },
        { type: 'redeem.submit' },
        done('redeemReward', redeemedGiftcard),
      ],
    },
    {
      name: 'a coupon: the code, then Confirm, then redeemed',
      start: redeemModel.starts[1]?.input,
      events: [
        { type: 'redeem.start' },
        done('sendCode', codeSent),
        done('otp', { otp: THE_CODE }),
        { type: 'redeem.confirm' },
        done('redeemReward', redeemedCoupon),
      ],
    },
  ];
  it.each(cases)('$name', ({ start, events }) => {
    const rules = oracleStart(start);
    let snapshot = getInitialSnapshot(redeemMachine, start as never) as AnyMachineSnapshot;
    let screen = screenOf(snapshot);
    const seen: string[] = [];
    for (const event of events) {
      const expected = oracleNext(rules, screen, event as EventObject & Record<string, unknown>);
      if (!expected) throw new Error(`the oracle has no rule for ${event.type} at ${screen.at}`);
      snapshot = getNextSnapshot(redeemMachine, snapshot as never, event as never) as AnyMachineSnapshot;
      seen.push(String(snapshot.value));
      expect(String(snapshot.value), `after ${event.type} (the machine went ${seen.join(' → ')})`).toBe(
        expected.at,
      );
      screen = expected;
    }
    expect(screen.at).toBe('done');
  });
});
