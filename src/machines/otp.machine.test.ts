import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { rewardMessages } from '../../contract/rewards';
import { isOtpComplete, otpMachine, pastedCode } from './otp.machine';

function start(online = true) {
  const checkOtp = vi.fn(async (_: { userId: number; otp: string }) => ({
    valid: true as const,
    attemptsLeft: 4,
  }));
  const sendCode = vi.fn(async () => ({ expiresAt: 'x', sentTo: 'a***@mail.ng' }));
  const actor = createActor(
    otpMachine.provide({
      actors: {
        checkOtp: fromPromise(({ input }) => checkOtp(input)),
        sendCode: fromPromise(() => sendCode()),
      },
    }),
    { input: { userId: 7, code: 'GC-1', online } },
  ).start();
  return { actor, checkOtp, sendCode };
}

describe('otp machine guards', () => {
  it('a pasted code is six ASCII digits (spaces and dashes dropped); anything else is refused', () => {
    expect(pastedCode('123456')).toBe('123456');
    expect(pastedCode(' 123-456 ')).toBe('123456');
    for (const text of ['12345', '1234567', '12ab56', '１２３４５６', ''])
      expect(pastedCode(text)).toBeNull();
  });

  it('ignores non-digits, advances focus, backspace clears and moves back', () => {
    const { actor } = start();
    actor.send({ type: 'otp.digit', index: 0, value: 'a' });
    actor.send({ type: 'otp.digit', index: 0, value: '٣' });
    expect(actor.getSnapshot().context.digits).toEqual(['', '', '', '', '', '']);
    actor.send({ type: 'otp.digit', index: 0, value: '4' });
    actor.send({ type: 'otp.digit', index: 1, value: '2' });
    expect(actor.getSnapshot().context).toMatchObject({ digits: ['4', '2', '', '', '', ''], focusIndex: 2 });
    actor.send({ type: 'otp.backspace', index: 2 });
    expect(actor.getSnapshot().context).toMatchObject({ digits: ['4', '', '', '', '', ''], focusIndex: 1 });
  });

  it('submits only when all six boxes are filled, and only online', async () => {
    const { actor, checkOtp } = start(false);
    actor.send({ type: 'otp.paste', text: '12345' });
    actor.send({ type: 'otp.submit' });
    expect(actor.getSnapshot().matches('entering')).toBe(true);
    actor.send({ type: 'otp.paste', text: '123456' });
    expect(isOtpComplete(actor.getSnapshot().context)).toBe(true);
    actor.send({ type: 'otp.submit' });
    expect(actor.getSnapshot().context.error).toBe(rewardMessages.networkRequired);
    expect(checkOtp).not.toHaveBeenCalled();
    actor.send({ type: 'network.online' });
    actor.send({ type: 'otp.submit' });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(done.output).toEqual({ otp: '123456' });
    expect(checkOtp).toHaveBeenCalledWith({ userId: 7, otp: '123456', code: 'GC-1' });
  });
});

/**
 * The boxes and the code's life (docs/product.md#modals 'OTP entry': six one-digit boxes, auto-advance,
 * backspace goes back; #redemption: 5 wrong tries at most, then only a new code helps). Added for
 * the mutants StrykerJS found alive (`npm run test:mutation`, decision 071).
 */
describe('otp machine: the six boxes', () => {
  const boxes = (actor: ReturnType<typeof start>['actor']) => actor.getSnapshot().context;

  it('a pasted code fills the six boxes and the focus is on the last; typing there keeps it there', () => {
    const { actor } = start();
    actor.send({ type: 'otp.paste', text: '123456' });
    expect(boxes(actor)).toMatchObject({ digits: ['1', '2', '3', '4', '5', '6'], focusIndex: 5 });
    actor.send({ type: 'otp.digit', index: 5, value: '9' });
    expect(boxes(actor)).toMatchObject({ digits: ['1', '2', '3', '4', '5', '9'], focusIndex: 5 });
    // A paste that is not a six-digit code changes nothing.
    actor.send({ type: 'otp.paste', text: '12345' });
    expect(boxes(actor)).toMatchObject({ digits: ['1', '2', '3', '4', '5', '9'], focusIndex: 5 });
  });

  it('one digit per box: two characters, or a digit typed with another, are ignored', () => {
    const { actor } = start();
    for (const value of ['12', '1a', ' 1', '']) actor.send({ type: 'otp.digit', index: 0, value });
    expect(boxes(actor)).toMatchObject({ digits: ['', '', '', '', '', ''], focusIndex: 0 });
  });

  it('backspace in a filled box clears it; in an empty box it clears the box before; focus goes back', () => {
    const { actor } = start();
    actor.send({ type: 'otp.paste', text: '123456' });
    actor.send({ type: 'otp.backspace', index: 5 });
    expect(boxes(actor)).toMatchObject({ digits: ['1', '2', '3', '4', '5', ''], focusIndex: 4 });
    // Box 5 is empty now: backspace there clears box 4.
    actor.send({ type: 'otp.backspace', index: 5 });
    expect(boxes(actor)).toMatchObject({ digits: ['1', '2', '3', '4', '', ''], focusIndex: 4 });
    actor.send({ type: 'otp.backspace', index: 2 });
    expect(boxes(actor)).toMatchObject({ digits: ['1', '2', '', '4', '', ''], focusIndex: 1 });
  });

  it('the first box is as far back as backspace goes', () => {
    const { actor } = start();
    actor.send({ type: 'otp.digit', index: 0, value: '7' });
    actor.send({ type: 'otp.backspace', index: 0 });
    expect(boxes(actor)).toMatchObject({ digits: ['', '', '', '', '', ''], focusIndex: 0 });
    actor.send({ type: 'otp.backspace', index: 0 });
    expect(boxes(actor)).toMatchObject({ digits: ['', '', '', '', '', ''], focusIndex: 0 });
  });

  it('the focus is always one of the six boxes', () => {
    const { actor } = start();
    actor.send({ type: 'otp.focus', index: 3 });
    expect(boxes(actor).focusIndex).toBe(3);
    actor.send({ type: 'otp.focus', index: 9 });
    expect(boxes(actor).focusIndex).toBe(5);
    actor.send({ type: 'otp.focus', index: -2 });
    expect(boxes(actor).focusIndex).toBe(0);
    actor.send({ type: 'otp.digit', index: 8, value: '3' });
    expect(boxes(actor)).toMatchObject({ digits: ['', '', '', '', '', '3'], focusIndex: 5 });
  });
});

describe('otp machine: wrong codes, the lock-out and a new code', () => {
  const wrong = (left: number) => ({
    status: 400,
    message: `Invalid code. ${left} attempts left.`,
    errors: [],
  });
  const locked = { status: 429, message: 'Too many attempts. Request a new code.', errors: [] };

  function startWith(answers: unknown[], sends: unknown[] = [], online = true) {
    const checkOtp = vi.fn(async () => {
      const a = answers.shift();
      if (a && typeof a === 'object' && 'status' in a) throw a;
      return { valid: true as const, attemptsLeft: 4 };
    });
    const sendCode = vi.fn(async (_: { userId: number; code: string }) => {
      const a = sends.shift();
      if (a) throw a;
      return { expiresAt: '2026-03-01T10:05:00.000Z', sentTo: 'n***@mail.ng' };
    });
    const actor = createActor(
      otpMachine.provide({
        actors: {
          checkOtp: fromPromise(() => checkOtp()),
          sendCode: fromPromise(({ input }) => sendCode(input)),
        },
      }),
      { input: { userId: 7, code: 'GC-1', sentTo: 'a***@mail.ng', online } },
    ).start();
    return { actor, checkOtp, sendCode };
  }
  const submit = async (actor: ReturnType<typeof startWith>['actor'], code = '111111') => {
    actor.send({ type: 'otp.paste', text: code });
    actor.send({ type: 'otp.submit' });
    return waitFor(actor, (s) => !s.matches('checking'));
  };

  it('a wrong code clears the boxes and says how many tries are left', async () => {
    const { actor } = startWith([wrong(4)]);
    expect(actor.getSnapshot().context.sentTo).toBe('a***@mail.ng');
    const s = await submit(actor);
    expect(s.value).toBe('entering');
    expect(s.context).toMatchObject({
      digits: ['', '', '', '', '', ''],
      focusIndex: 0,
      attemptsLeft: 4,
      error: 'Invalid code. 4 attempts left.',
    });
    // The next try: the message of the last one goes as it is sent.
    actor.send({ type: 'otp.paste', text: '123456' });
    actor.send({ type: 'otp.submit' });
    expect(actor.getSnapshot().value).toBe('checking');
    expect(actor.getSnapshot().context.error).toBeNull();
    expect((await waitFor(actor, (x) => x.status === 'done')).output).toEqual({ otp: '123456' });
  });

  it('the fifth wrong code locks: the boxes cleared, no tries left, only a new code helps', async () => {
    const { actor, checkOtp } = startWith([wrong(4), wrong(3), wrong(2), wrong(1), locked]);
    for (let i = 0; i < 4; i++) expect((await submit(actor)).value).toBe('entering');
    const s = await submit(actor);
    expect(s.value).toBe('locked');
    expect(s.context).toMatchObject({
      digits: ['', '', '', '', '', ''],
      focusIndex: 0,
      attemptsLeft: 0,
      error: locked.message,
    });
    // Locked: typing and Submit do nothing.
    actor.send({ type: 'otp.paste', text: '222222' });
    actor.send({ type: 'otp.submit' });
    expect(actor.getSnapshot().value).toBe('locked');
    expect(actor.getSnapshot().context.digits).toEqual(['', '', '', '', '', '']);
    expect(checkOtp).toHaveBeenCalledTimes(5);
  });

  it('a new code from the lock: sent to the reward of this check, tries counted afresh, said where it went', async () => {
    const { actor, sendCode } = startWith([locked]);
    await submit(actor);
    actor.send({ type: 'otp.resend' });
    expect(actor.getSnapshot().context).toMatchObject({ error: null, notice: null });
    const s = await waitFor(actor, (x) => !x.matches('resending'));
    expect(sendCode).toHaveBeenCalledWith({ userId: 7, code: 'GC-1' });
    expect(s.value).toBe('entering');
    expect(s.context).toMatchObject({ attemptsLeft: null, sentTo: 'n***@mail.ng', error: null });
    expect(s.context.notice).toContain('n***@mail.ng');
    // The next check is a normal one.
    const done = await submit(actor, '654321');
    expect(done.status).toBe('done');
    expect(done.output).toEqual({ otp: '654321' });
  });

  it('a new code that fails to go from the lock stays locked; from the boxes it goes back to them', async () => {
    const { actor } = startWith(
      [locked],
      [
        { status: 0, message: 'Network Error', errors: [] },
        { status: 0, message: 'Network Error', errors: [] },
      ],
    );
    await submit(actor);
    actor.send({ type: 'otp.resend' });
    let s = await waitFor(actor, (x) => !x.matches('resending'));
    expect(s.value).toBe('locked');
    expect(s.context.error).toBe('Network Error');
    const other = startWith([], [{ status: 0, message: 'Network Error', errors: [] }]);
    other.actor.send({ type: 'otp.digit', index: 0, value: '5' });
    other.actor.send({ type: 'otp.resend' });
    s = await waitFor(other.actor, (x) => !x.matches('resending'));
    expect(s.value).toBe('entering');
    expect(s.context.error).toBe('Network Error');
    other.actor.send({ type: 'otp.resend' });
    expect(other.actor.getSnapshot().value).toBe('resending');
    expect(other.actor.getSnapshot().context.error).toBeNull();
  });

  it('a check with no answer keeps the digits for another Submit', async () => {
    const { actor } = startWith([{ status: 0, message: 'Network Error', errors: [] }]);
    const s = await submit(actor, '123456');
    expect(s.value).toBe('entering');
    expect(s.context).toMatchObject({ digits: ['1', '2', '3', '4', '5', '6'], error: 'Network Error' });
    expect(s.context.attemptsLeft).toBeNull();
  });

  it('offline, neither a check nor a new code is sent (from the boxes or the lock); online again, they are', async () => {
    const { actor, checkOtp, sendCode } = startWith([locked]);
    actor.send({ type: 'network.offline' });
    actor.send({ type: 'otp.resend' });
    expect(actor.getSnapshot().context.error).toBe(rewardMessages.networkRequired);
    expect(sendCode).not.toHaveBeenCalled();
    actor.send({ type: 'network.online' });
    await submit(actor);
    expect(actor.getSnapshot().value).toBe('locked');
    actor.send({ type: 'network.offline' });
    actor.send({ type: 'otp.resend' });
    expect(actor.getSnapshot().value).toBe('locked');
    expect(actor.getSnapshot().context).toMatchObject({
      error: rewardMessages.networkRequired,
      notice: null,
    });
    expect(sendCode).not.toHaveBeenCalled();
    expect(checkOtp).toHaveBeenCalledTimes(1);
  });
});
