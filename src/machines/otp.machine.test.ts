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
