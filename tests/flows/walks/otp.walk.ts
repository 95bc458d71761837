import type { AnyMachineSnapshot } from 'xstate';
import { rewardMessages } from '../../../contract/rewards';
import { type OtpContext, otpMachine } from '../../../src/machines/otp.machine';
import { otpModel, THE_CODE } from '../../model/flow-paths';
import {
  dialogOf,
  expect,
  expectError,
  type MachineWalk,
  OTP_MAIL,
  paste,
  setNetwork,
  type WalkContext,
} from '../walk-kit';
import { openFreshReward, redeemEffects } from './redeem.walk';

/**
 * The OTP boxes walked in the browser, in the OTP modal of a fresh gift card's redemption. The
 * model's code (123456) stands for the code the server mailed the customer, read from the mailbox:
 * a digit typed into box i is the mailed code's digit i, a pasted '123456' is the mailed code. The
 * check and a new code are held at the browser's edge; 'accepted' goes to the real server, which
 * accepts the real code; the wrong-code and lock-out answers are the model's (a lock-out takes five
 * wrong codes at the real server). A path in which the server never accepts the code opens the
 * modal on a 'code sent' answered at the edge (see `begin`).
 */

const group = (w: WalkContext) => dialogOf(w.page).getByRole('group', { name: 'One-time code' });
const box = (w: WalkContext, index: number) =>
  group(w).getByRole('textbox', { name: `Digit ${index + 1} of 6` });
const realCode = (w: WalkContext) => w.data.otp as string;
const realText = (w: WalkContext, text: string) => (text === THE_CODE ? realCode(w) : text);

async function readNewCode(w: WalkContext) {
  w.data.otp = await w.mail.waitFor(w.world.customer.email, w.data.seen as Set<string>, OTP_MAIL);
}

export const walk: MachineWalk = {
  file: 'otp',
  machine: otpMachine,
  model: otpModel,
  effects: {
    checkOtp: { method: 'POST', path: /\/partners\/rewards\/redemption-auth-otp-validity-check$/ },
    sendCode: redeemEffects.sendCode,
  },
  begin: async (w, path) => {
    const code = await openFreshReward(w, 'GIFTCARD');
    w.data.seen = await w.mail.seen(w.world.customer.email);
    await w.page.getByRole('button', { name: `Redeem ${code}` }).click();
    if (path.steps.some((s) => s.event.type === 'xstate.done.actor.checkOtp')) {
      // The server is to accept the code: the real server sends one, the customer reads it.
      await w.edge.pass('sendCode');
      await expect(group(w)).toBeVisible();
      return readNewCode(w);
    }
    // A path that never has the server accept the code opens the boxes on the answer the server
    // gives ('code sent'), given at the edge: a deployment sends at most 60 codes per address and
    // 30 per staff member in 15 minutes (docs/decisions/013), and the walk has ~100 paths.
    await w.edge.answer('sendCode', {
      expiresAt: new Date(Date.now() + 300_000).toISOString(),
      sentTo: 'the customer',
    });
    await expect(group(w)).toBeVisible();
    w.data.otp = THE_CODE;
  },
  step: async (w, event) => {
    if (await setNetwork(w, event)) return;
    if (event.type === 'xstate.done.actor.sendCode') {
      await w.edge.pass('sendCode');
      return readNewCode(w);
    }
    if (await w.edge.settle(event)) return;
    // Typing and Backspace go to the box the event names (the machine moves the focus there itself;
    // after a Backspace the model's next box can be the one after the focus, as a user's click would).
    const focused = group(w).locator('input:focus');
    switch (event.type) {
      case 'otp.digit': {
        const index = Number(event.index);
        const value = String(event.value);
        const typed = /^[0-9]$/.test(value) ? (realCode(w)[index] as string) : value;
        return box(w, index).pressSequentially(typed);
      }
      case 'otp.backspace':
        return box(w, Number(event.index)).press('Backspace');
      case 'otp.paste':
        return paste(focused, realText(w, String(event.text)));
      case 'otp.focus':
        return box(w, Number(event.index)).click();
      case 'otp.submit':
        // Enter in a box submits the form; the Submit button itself is disabled until six digits.
        return box(w, 0).press('Enter');
      case 'otp.resend':
        w.data.seen = await w.mail.seen(w.world.customer.email);
        return dialogOf(w.page).getByRole('button', { name: 'Send a new code' }).click();
      default:
        throw new Error(`no way to do ${event.type} in the browser`);
    }
  },
  check: async (w, s: AnyMachineSnapshot) => {
    const c = s.context as OtpContext;
    const dialog = dialogOf(w.page);
    const submit = dialog.getByRole('button', { name: /^(Submit|Checking)$/ });
    switch (String(s.value)) {
      case 'entering': {
        await expect(box(w, 0)).toBeEnabled();
        const filled = c.digits.filter((d) => /^[0-9]$/.test(d)).length;
        await expect
          .poll(async () => {
            let n = 0;
            for (let i = 0; i < 6; i++) if (/^[0-9]$/.test(await box(w, i).inputValue())) n++;
            return n;
          })
          .toBe(filled);
        if (filled === 6) await expect(submit).toBeEnabled();
        else await expect(submit).toBeDisabled();
        // The notice names where the real server sent the code (the model's fixture names another address).
        if (c.notice && !c.error)
          await expect(
            dialog.getByRole('status').filter({ hasText: /^A new code was sent to .+\.$/ }),
          ).toBeVisible();
        return expectError(dialog, c.error);
      }
      case 'checking':
      case 'resending':
        await expect(box(w, 0)).toBeDisabled();
        return expect(submit).toHaveAttribute('aria-busy', 'true');
      case 'locked':
        await expect(box(w, 0)).toBeDisabled();
        await expect(dialog.getByRole('button', { name: 'Send a new code' })).toBeEnabled();
        return expectError(dialog, c.error);
      case 'valid':
        return expect(dialog.getByLabel('Amount to redeem')).toBeVisible();
    }
    throw new Error(`no check for state ${JSON.stringify(s.value)}`);
  },
  after: async (w, s, sentBefore) => {
    if ((s.context as OtpContext).error === rewardMessages.networkRequired)
      expect(w.edge.sent).toBe(sentBefore);
  },
};
