import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { otpMachine } from '../../machines/otp.machine';
import { OtpInput } from './otp-input';

function renderOtp() {
  const checkOtp = vi.fn(async (_: { userId: number; otp: string }) => ({
    valid: true as const,
    attemptsLeft: 4,
  }));
  const actor = createActor(
    otpMachine.provide({
      actors: {
        checkOtp: fromPromise(({ input }) => checkOtp(input)),
        sendCode: fromPromise(async () => ({ expiresAt: 'x', sentTo: 'a***@mail.ng' })),
      },
    }),
    { input: { userId: 7, code: 'GC-1', online: true } },
  ).start();
  render(<OtpInput actor={actor} />);
  const boxes = Array.from({ length: 6 }, (_, i) =>
    screen.getByRole('textbox', { name: `Digit ${i + 1} of 6` }),
  );
  return { actor, boxes, checkOtp, submit: screen.getByRole('button', { name: 'Submit' }) };
}

describe('OtpInput', () => {
  it('is a group named One-time code of six numeric boxes', () => {
    const { boxes } = renderOtp();
    expect(screen.getByRole('group', { name: 'One-time code' })).toBeInTheDocument();
    for (const box of boxes) expect(box).toHaveAttribute('inputmode', 'numeric');
  });

  it('auto-advances, ignores letters, and enables Submit only when all six are filled', async () => {
    const user = userEvent.setup();
    const { boxes, submit, checkOtp, actor } = renderOtp();
    expect(submit).toBeDisabled();
    await user.click(boxes[0] as HTMLElement);
    await user.keyboard('1a2345');
    expect(boxes.map((b) => (b as HTMLInputElement).value)).toEqual(['1', '2', '3', '4', '5', '']);
    expect(boxes[5]).toHaveFocus();
    expect(submit).toBeDisabled();
    await user.keyboard('6');
    expect(submit).toBeEnabled();
    await user.click(submit);
    await waitFor(() => expect(actor.getSnapshot().status).toBe('done'));
    expect(checkOtp).toHaveBeenCalledWith({ userId: 7, otp: '123456', code: 'GC-1' });
  });

  it('Backspace clears and moves back', async () => {
    const user = userEvent.setup();
    const { boxes } = renderOtp();
    await user.click(boxes[0] as HTMLElement);
    await user.keyboard('123');
    expect(boxes[3]).toHaveFocus();
    await user.keyboard('{Backspace}');
    expect(boxes[2]).toHaveFocus();
    expect((boxes[2] as HTMLInputElement).value).toBe('');
    await user.keyboard('{Backspace}');
    expect(boxes[1]).toHaveFocus();
    expect(boxes.map((b) => (b as HTMLInputElement).value)).toEqual(['1', '', '', '', '', '']);
  });

  it('pasting six digits fills every box; other text is ignored', async () => {
    const user = userEvent.setup();
    const { boxes, submit } = renderOtp();
    await user.click(boxes[0] as HTMLElement);
    await user.paste('12ab');
    expect(boxes.map((b) => (b as HTMLInputElement).value)).toEqual(['', '', '', '', '', '']);
    await user.paste('654321');
    expect(boxes.map((b) => (b as HTMLInputElement).value)).toEqual(['6', '5', '4', '3', '2', '1']);
    expect(submit).toBeEnabled();
  });

  it('offline, Submit says the network is needed and sends nothing', async () => {
    const user = userEvent.setup();
    const { boxes, submit, actor, checkOtp } = renderOtp();
    act(() => {
      actor.send({ type: 'network.offline' });
    });
    await user.click(boxes[0] as HTMLElement);
    await user.paste('123456');
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('This needs a network connection');
    expect(checkOtp).not.toHaveBeenCalled();
  });
});
