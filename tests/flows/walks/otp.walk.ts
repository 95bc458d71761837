import type { AnyMachineSnapshot } from 'xstate';
import { rewardMessages } from '../../../contract/rewards';
import { type OtpContext, otpMachine } from '../../../src/machines/otp.machine';
import type { FlowPath } from '../../model/flow-engine';
import { lockedError, otpModel, THE_CODE, wrongCodeError } from '../../model/flow-paths';
import {
  dialogOf,
  expect,
  expectError,
  type MachineWalk,
  OTP_MAIL,
  paste,
  serverSaid,
  setNetwork,
  shownError,
  type WalkContext,
} from '../walk-kit';
import { FlowsApi } from '../world';
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
  // A new code: its own five tries.
  w.data.wrongTries = 0;
}

/** The product's rule (docs/product.md#redemption): a code takes 5 wrong tries at most, then is locked. */
export const WRONG_TRIES_BEFORE_LOCK = 5;
/** The server's words for a wrong code with `left` tries left (docs/product.md#redemption). */
const attemptsLeftText = (left: number) => new RegExp(`\\b${left} attempts? left`);

/** A code that is not the mailed one (its last digit changed). */
const wrongOf = (code: string) => `${code.slice(0, 5)}${(Number(code[5]) + 1) % 10}`;

/** Whether the path has the real server check the code (accept it, refuse it, lock it). */
const realChecks = (path: FlowPath) =>
  path.steps.some(
    (s) =>
      s.event.type === 'xstate.done.actor.checkOtp' ||
      (s.event.type === 'xstate.error.actor.checkOtp' &&
        [wrongCodeError, lockedError].includes((s.event as { error?: never }).error as never)),
  );

/** The run's partner staff member, signed in through the API: the wrong tries made from outside. */
let staffApi: FlowsApi | null = null;
async function outsider(w: WalkContext): Promise<FlowsApi> {
  if (!staffApi) {
    staffApi = new FlowsApi(w.baseUrl, w.world.staff);
    await staffApi.signIn();
  }
  return staffApi;
}

/** The browser's check of a wrong code, answered by the real server. */
async function wrongCodeAtServer(w: WalkContext, fixture: { message: string }) {
  await w.edge.passEdited('checkOtp', (body) => ({ ...body, otp: wrongOf(realCode(w)) }));
  const answer = await w.edge.answerOf('checkOtp');
  if (answer) serverSaid(w).set(fixture.message, answer.message);
  return answer;
}

/**
 * Wrong codes until the lock-out, at the real server: the tries the path made in the browser and
 * then tries from outside (the partner staff member, through the API). Each wrong try before the
 * fifth says how many are left; the browser's next check is refused as locked.
 */
async function lockAtServer(w: WalkContext) {
  const api = await outsider(w);
  let tries = Number(w.data.wrongTries ?? 0);
  while (tries < WRONG_TRIES_BEFORE_LOCK) {
    const answer = await api
      .call('POST', '/partners/rewards/redemption-auth-otp-validity-check', {
        userId: w.world.customer.id,
        otp: wrongOf(realCode(w)),
        code: w.data.code,
      })
      .then(
        () => ({ status: 200, text: '' }),
        (e: { status?: number; message?: string }) => ({ status: e.status ?? -1, text: e.message ?? '' }),
      );
    tries += 1;
    expect(answer.status, `wrong try ${tries} of ${WRONG_TRIES_BEFORE_LOCK} is refused, not locked`).toBe(
      400,
    );
    expect(answer.text).toMatch(attemptsLeftText(WRONG_TRIES_BEFORE_LOCK - tries));
  }
  w.data.wrongTries = tries;
  const answer = await wrongCodeAtServer(w, lockedError);
  expect(answer?.status, `locked after ${WRONG_TRIES_BEFORE_LOCK} wrong tries`).toBe(429);
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
    w.data.wrongTries = 0;
    if (realChecks(path)) {
      // The server is to accept, refuse or lock the code: the real server sends one, the customer reads it.
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
    if (event.type === 'xstate.error.actor.checkOtp' && w.data.otp !== THE_CODE) {
      // A wrong code and the lock-out are the real server's answers (the code is a real one).
      if (event.error === wrongCodeError) {
        const answer = await wrongCodeAtServer(w, wrongCodeError);
        w.data.wrongTries = Number(w.data.wrongTries) + 1;
        expect(answer?.status, 'a wrong code with tries left is refused, not locked').toBe(400);
        return expect(answer?.message).toMatch(
          attemptsLeftText(WRONG_TRIES_BEFORE_LOCK - Number(w.data.wrongTries)),
        );
      }
      if (event.error === lockedError) return lockAtServer(w);
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
        return expectError(dialog, shownError(w, c.error));
      }
      case 'checking':
      case 'resending':
        await expect(box(w, 0)).toBeDisabled();
        return expect(submit).toHaveAttribute('aria-busy', 'true');
      case 'locked':
        await expect(box(w, 0)).toBeDisabled();
        await expect(dialog.getByRole('button', { name: 'Send a new code' })).toBeEnabled();
        // Locked means the server locked the code (a wrong code with tries left leaves the boxes open).
        if (w.data.otp !== THE_CODE)
          expect((await w.edge.answerOf('checkOtp'))?.status, 'the server locked the code').toBe(429);
        return expectError(dialog, shownError(w, c.error));
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
