import type { Locator, Page } from '@playwright/test';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { LoginResponse, SessionUser } from '../../contract/auth';
import { expect, type MachineWalk, type WalkContext } from '../../tests/flows/walk-kit';
import type { FlowModel, FlowPath } from '../../tests/model/flow-engine';
import { OUTBOX_MESSAGES } from '../lib/outbox';
import { type SessionContext, sessionMachine } from './session.machine';

/**
 * DRAFT (not picked up by the walk: rename to session.walk.ts when its paths pass). First run: 0/16
 * paths, the Logout button and the partners searchbox were not found as written below, and the
 * fetchProfile step (line ~71) must go or be held again. Still to model: another user's session
 * synced from a tab, the lock races of two tabs, a locked start after a reload, profile.updated.
 *
 * The session walked in the browser: sign-in (the sign-in screen, and the dialog over a locked
 * session), a token the server rejects (the next list call answered 401 at the browser's edge, as an
 * access token past its lifetime is), the refresh let through to the real server, refused for real
 * (its refresh token used up from outside first) or with no answer (offline until the link is
 * back), sign-out (told, not told, or no answer within 5 s), and a second tab of the same browser
 * that refreshes or signs out. Sign-in, refresh and sign-out are held at the edge until the path
 * says how they end; what the real server answers is decided by what was typed (the path looks one
 * step ahead: a wrong password when the server is to refuse it, the staff member's credentials when
 * another user signs in over a locked session).
 */

const user = (id: number, email: string): SessionUser =>
  ({
    id,
    email,
    firstName: 'Flow',
    lastName: 'Walker',
    role: 'admin',
    permissions: [],
  }) as unknown as SessionUser;
const admin = user(1, 'admin');
const staff = user(2, 'staff');
const signedInAs = (u: SessionUser, n = 1): LoginResponse => ({
  accessToken: `access-${u.id}-${n}`,
  refreshToken: `refresh-${u.id}-${n}`,
  user: u,
});
/** A session whose user has an edit saved on this device (the walk queues one before the path). */
type Marked = LoginResponse & { queued?: number };
const withEdit: Marked = { ...signedInAs(admin), queued: 1 };

const refused = { status: 401, message: 'Unauthorized', errors: [] };
const noAnswer = { status: 0, message: 'Network Error', errors: [] };

const done = (id: string, output?: unknown) => ({ type: `xstate.done.actor.${id}`, output });
const fail = (id: string, error: unknown) => ({ type: `xstate.error.actor.${id}`, error });
const at = (s: AnyMachineSnapshot, value: unknown) => s.matches(value as never);
const queuedOf = (c: SessionContext) => (c.session as Marked | null)?.queued ?? 0;
const next = (c: SessionContext) => {
  const n = Number(/-(\d+)$/.exec(c.session?.accessToken ?? '')?.[1] ?? 1) + 1;
  return c.session ? signedInAs(c.session.user, n) : signedInAs(admin, n);
};

function browserEvents(s: AnyMachineSnapshot): EventObject[] {
  const c = s.context as SessionContext;
  const token = c.session?.accessToken ?? '';
  const events: Array<EventObject & Record<string, unknown>> = [];
  if (at(s, { signedOut: 'idle' }) || at(s, { signedOut: 'failure' }))
    events.push({ type: 'session.signIn', credentials: { email: 'admin', password: '' } });
  if (at(s, { signedOut: 'loading' }))
    events.push(done('signIn', signedInAs(admin)), fail('signIn', refused));
  if (at(s, { signedOut: 'wiping' })) events.push(done('wipeDevice'));
  if (at(s, { signedIn: 'active' })) {
    events.push({ type: 'token.rejected', token });
    // Nothing queued: a second tab can sign out (with edits queued it would ask first).
    if (queuedOf(c) === 0) {
      events.push({ type: 'session.logout' });
      events.push({ type: 'session.endedElsewhere', reason: 'logout' });
    }
    events.push({ type: 'session.synced', session: { ...next(c), queued: queuedOf(c) } });
    if (c.profile === null)
      events.push(done('fetchProfile', { role: c.session?.user.role, permissions: [] }));
  }
  // After one or two refreshes with no answer the next goes in 1 s, 2 s (those pauses are walked); after three, in
  // 4 s: the network returning, a call needing a token or another tab's refresh come first.
  if (at(s, { signedIn: 'linkDown' }) && c.refreshFailures < 3)
    events.push({ type: 'xstate.after.refreshBackoff.session.signedIn.linkDown' });
  if (at(s, { signedIn: 'linkDown' }) && c.refreshFailures >= 3)
    events.push(
      { type: 'link.online' },
      { type: 'token.rejected', token },
      { type: 'session.synced', session: { ...next(c), queued: queuedOf(c) } },
    );
  if (at(s, { signedIn: { refreshing: 'waitingForLock' } }))
    events.push({ type: 'lock.acquired', stored: c.session });
  if (at(s, { signedIn: { refreshing: 'calling' } }))
    events.push(
      done('refreshTokens', next(c)),
      fail('refreshTokens', refused),
      fail('refreshTokens', noAnswer),
    );
  if (at(s, 'signingOut'))
    events.push(done('logOut'), fail('logOut', noAnswer), {
      type: 'xstate.after.logoutTimeout.session.signingOut',
    });
  if (at(s, 'ending')) events.push(done('queuedEdits', queuedOf(c)));
  if (at(s, { locked: 'idle' }) || at(s, { locked: 'failure' }))
    events.push(
      { type: 'session.signIn', credentials: { email: 'admin', password: '' } },
      { type: 'session.signIn', credentials: { email: 'staff', password: '' } },
    );
  if (at(s, { locked: 'loading' }))
    events.push(
      done('signIn', { ...signedInAs(admin, 9), queued: 1 }),
      done('signIn', signedInAs(staff)),
      fail('signIn', refused),
    );
  if (at(s, { locked: 'switching' })) events.push(done('wipeDevice'));
  return events;
}

const describeEvent = (e: EventObject): string => {
  const ev = e as EventObject & { output?: LoginResponse; error?: { status?: number } };
  switch (e.type) {
    case 'session.signIn':
      return 'type the email and password, press Sign in';
    case 'xstate.done.actor.signIn':
      return `the server signs ${ev.output?.user.id === staff.id ? 'the partner staff member' : 'the admin'} in`;
    case 'xstate.error.actor.signIn':
      return 'the server refuses the password (401)';
    case 'xstate.done.actor.wipeDevice':
      return "the user's data is wiped from the browser";
    case 'token.rejected':
      return 'the server rejects the access token (a list call answered 401)';
    case 'lock.acquired':
      return 'this tab takes the refresh lock';
    case 'xstate.done.actor.refreshTokens':
      return 'the server refreshes the tokens';
    case 'xstate.error.actor.refreshTokens':
      return ev.error?.status === 401
        ? 'the refresh is refused (its token was used up elsewhere)'
        : 'the refresh gets no answer';
    case 'xstate.after.refreshBackoff.session.signedIn.linkDown':
      return 'the pause before the next refresh ends';
    case 'link.online':
      return 'the network drops and returns';
    case 'session.synced':
      return 'another tab refreshes the tokens';
    case 'session.endedElsewhere':
      return 'another tab signs out';
    case 'session.logout':
      return 'press Logout';
    case 'xstate.done.actor.logOut':
      return 'the server ends the session';
    case 'xstate.error.actor.logOut':
      return 'the sign-out gets no answer';
    case 'xstate.after.logoutTimeout.session.signingOut':
      return 'the sign-out hangs for 5 s';
    case 'xstate.done.actor.queuedEdits':
      return `${(e as { output?: number }).output ? 'an edit is' : 'no edits are'} saved on this device`;
    case 'xstate.done.actor.fetchProfile':
      return 'the profile loads';
    default:
      return e.type;
  }
};

const describeState = (s: AnyMachineSnapshot): string => {
  const c = s.context as SessionContext;
  const where = JSON.stringify(s.value).replace(/[{}"]/g, '').replace(/:/g, ' ');
  return `${where}${c.session ? ` (${c.session.user.id === staff.id ? 'staff' : 'admin'})` : ''}`;
};

const model: FlowModel<typeof sessionMachine> = {
  name: 'session',
  title: 'Session: sign-in, refresh, a lossy link, sign-out, other tabs',
  machine: sessionMachine,
  starts: [
    { label: 'Signed out', input: { restored: null } },
    { label: 'Signed in', input: { restored: signedInAs(admin) } },
    { label: 'Signed in with an edit saved on this device', input: { restored: withEdit } },
  ],
  events: browserEvents,
  abstract: (s) => {
    const c = s.context as SessionContext;
    return {
      user: c.session?.user.id ?? null,
      queued: queuedOf(c),
      locked: c.locked?.queued ?? null,
      failures: Math.min(c.refreshFailures, 3),
      profile: c.profile !== null,
    };
  },
  eventCase: (e) => {
    const ev = e as EventObject & { output?: LoginResponse; error?: { status?: number } };
    return `${e.type} ${ev.output?.user?.id ?? ''} ${ev.error?.status ?? ''}`;
  },
  describeEvent,
  describeState,
};

const effects = {
  signIn: { method: 'POST', path: /\/api\/v1\/admin\/auth\/login$/ },
  refreshTokens: { method: 'POST', path: /\/api\/v1\/auth\/refresh-token$/ },
  logOut: { method: 'POST', path: /\/api\/v1\/auth\/logout$/ },
};

/** The heading of components/session-lock-dialog.tsx (LOCKED_HEADING; that module needs the styles). */
const LOCKED_HEADING = 'Your session has ended';
const lockDialog = (page: Page) => page.getByRole('dialog', { name: LOCKED_HEADING });
const logoutButton = (page: Page) => page.getByRole('button', { name: 'Logout' }).first();

async function fillSignIn(scope: Locator | Page, who: { email: string; password: string }) {
  await scope.getByPlaceholder('Enter your email').fill(who.email);
  await scope.getByPlaceholder('Enter your password').fill(who.password);
  await scope.getByRole('button', { name: 'Sign in' }).click();
}

/** The next list call of this page is answered 401, as a token past its lifetime is. */
async function rejectNextCall(page: Page, tag: string) {
  await page.route(
    (url) => url.pathname.endsWith('/api/v1/admin/partners') && url.searchParams.has('searchText'),
    (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, data: null, message: 'Unauthorized', errors: [] }),
      }),
    { times: 1 },
  );
  if (!/\/dashboard\/partners$/.test(new URL(page.url()).pathname)) {
    await page.getByRole('link', { name: 'Partner', exact: true }).first().click();
    await expect(page).toHaveURL(/\/dashboard\/partners$/);
  }
  await page.getByRole('searchbox').first().fill(`${tag} ${Date.now()}`);
}

const stored = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('admin') ?? 'null') as LoginResponse | null);

/** A second tab of the same browser: it opens the partners list, its token is rejected, it refreshes. */
async function otherTabRefreshes(w: WalkContext) {
  const before = (await stored(w.page))?.refreshToken;
  const tab = await w.context.newPage();
  await tab.goto('/dashboard/partners');
  await rejectNextCall(tab, w.world.tag);
  await expect.poll(async () => (await stored(tab))?.refreshToken).not.toBe(before);
  await tab.close();
}

async function otherTabSignsOut(w: WalkContext) {
  const tab = await w.context.newPage();
  await tab.goto('/dashboard');
  await logoutButton(tab).click();
  await expect(tab).toHaveURL(/\/$/);
  await tab.close();
}

/** Uses the page's refresh token up from outside (and its successor, past the grace): it is dead. */
async function killRefreshToken(w: WalkContext) {
  const session = await stored(w.page);
  const refresh = async (refreshToken: string) =>
    w.api.call<{ refreshToken: string }>('POST', '/auth/refresh-token', { refreshToken });
  const successor = await refresh(session?.refreshToken ?? '');
  await refresh(successor.refreshToken);
}

/** An edit of the run's partner kept on the device: its sends get no answer while the path runs. */
async function queueAnEdit(w: WalkContext) {
  const page = w.page;
  await page.route('**/api/v1/admin/partners/update-record', (route) => route.abort('internetdisconnected'));
  await page.goto(`/dashboard/partners/${w.world.partner.id}`);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(page.getByLabel('Address')).toHaveValue(/./);
  await page.getByLabel('Address').fill(`${w.world.tag} session walk edit ${Date.now()}`);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(OUTBOX_MESSAGES.savedOffline).last()).toBeVisible();
  await expect(page.getByTestId('pending-count')).toHaveText('1');
}

const path = (w: WalkContext) => w.data.path as FlowPath;

/** Who the next step says signs in: the staff member, the admin, or the admin with a wrong password. */
function credentialsFor(w: WalkContext) {
  const following = path(w).steps[Number(w.data.i)]?.event as
    | (EventObject & { output?: LoginResponse })
    | undefined;
  if (following?.type === 'xstate.error.actor.signIn')
    return { email: w.world.admin.email, password: `${w.world.admin.password}-wrong` };
  if (following?.output?.user.id === staff.id) return w.world.staff;
  return w.world.admin;
}

export const walk: MachineWalk = {
  file: 'session',
  machine: sessionMachine,
  model,
  effects,
  // Its own sessions, and the staff member's sign-in: beside the others (no mail, no OTP).
  lane: 3,
  unreachable: {
    'session.signedOut.wiping xstate.error.actor.wipeDevice #0':
      'the wipe failing: a page cannot make the browser fail deleting its own storage',
    'session.signedOut.wiping xstate.after.wipeTimeout.session.signedOut.wiping #0':
      "the wipe hanging needs a tab holding the database open against deletion; the SPA's tabs close it (Dexie)",
    'session.locked.switching xstate.error.actor.wipeDevice #0':
      'the wipe failing: a page cannot make the browser fail deleting its own storage',
    'session.locked.switching xstate.after.wipeTimeout.session.locked.switching #0':
      "the wipe hanging needs a tab holding the database open against deletion; the SPA's tabs close it (Dexie)",
    'session.ending xstate.error.actor.queuedEdits #0':
      'IndexedDB failing to count the queued edits: a page cannot make the browser fail a transaction',
    'session.locked session.logout #0':
      'the sign-in dialog over a locked session is modal, cannot be closed and offers no sign-out',
    'session.locked.switching session.logout #0':
      'the sign-in dialog over a locked session is modal, cannot be closed and offers no sign-out',
  },
  begin: async (w, p) => {
    w.data.path = p;
    w.data.i = 0;
    const restored = (p.start.input as { restored: Marked | null }).restored;
    if (restored === null) {
      // Signed out: the browser signs out first (the run signs every browser in), with nothing held.
      await w.edge.passAll(true);
      await w.page.goto('/dashboard');
      await logoutButton(w.page).click();
      await expect(w.page.getByPlaceholder('Enter your email')).toBeEnabled();
      await w.edge.passAll(false);
      return;
    }
    if (restored.queued) {
      await w.edge.passAll(true);
      await queueAnEdit(w);
      await w.edge.passAll(false);
      // The page as it opens with that edit saved: the session starts again.
      await w.page.reload();
    } else await w.page.goto('/dashboard/partners');
  },
  step: async (w, event) => {
    w.data.i = Number(w.data.i) + 1;
    const page = w.page;
    switch (event.type) {
      case 'session.signIn': {
        const scope = (await lockDialog(page).isVisible()) ? lockDialog(page) : page;
        return fillSignIn(scope, credentialsFor(w));
      }
      // The real server answers what was typed.
      case 'xstate.done.actor.signIn':
      case 'xstate.error.actor.signIn':
        return w.edge.pass('signIn');
      case 'xstate.error.actor.refreshTokens':
        if ((event.error as { status?: number }).status === 401) {
          await killRefreshToken(w);
          return w.edge.pass('refreshTokens');
        }
        return w.edge.fail('refreshTokens', noAnswer);
      case 'token.rejected':
        return rejectNextCall(page, w.world.tag);
      case 'link.online':
        await w.context.setOffline(true);
        return w.context.setOffline(false);
      case 'session.synced':
        return otherTabRefreshes(w);
      case 'session.endedElsewhere':
        return otherTabSignsOut(w);
      case 'session.logout':
        return logoutButton(page).click();
      // They happen by themselves: the lock is free, the pauses end, the wipe and the count are local.
      case 'lock.acquired':
      case 'xstate.after.refreshBackoff.session.signedIn.linkDown':
      case 'xstate.after.logoutTimeout.session.signingOut':
      case 'xstate.done.actor.wipeDevice':
      case 'xstate.done.actor.queuedEdits':
        return;
    }
    if (await w.edge.settle(event)) return;
    throw new Error(`no way to do ${event.type} in the browser`);
  },
  check: async (w, s: AnyMachineSnapshot) => {
    const page = w.page;
    const c = s.context as SessionContext;
    const held = (effect: string, n: number) =>
      expect.poll(() => w.edge.holding(effect), { message: `${effect} held` }).toBe(n);
    if (at(s, { signedOut: 'idle' }) || at(s, { signedOut: 'wiping' })) {
      await expect(page).toHaveURL(/\/$/);
      return expect(page.getByPlaceholder('Enter your email')).toBeVisible();
    }
    if (at(s, { signedOut: 'failure' })) {
      await expect(page.getByPlaceholder('Enter your email')).toBeVisible();
      return expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    }
    if (at(s, { signedOut: 'loading' }) || at(s, { locked: 'loading' })) return held('signIn', 1);
    if (at(s, 'signingOut')) return held('logOut', 1);
    if (at(s, { signedIn: { refreshing: 'calling' } })) return held('refreshTokens', 1);
    // The lock is free (one tab) and the count of queued edits local: both last an instant.
    if (at(s, { signedIn: { refreshing: 'waitingForLock' } }) || at(s, 'ending')) return;
    if (at(s, 'locked') && !at(s, { locked: 'switching' })) {
      await expect(lockDialog(page)).toContainText(`Sign in again as ${w.world.admin.email}`);
      return expect(lockDialog(page).getByRole('button', { name: 'Sign in' })).toBeEnabled();
    }
    if (at(s, 'signedIn') || at(s, { locked: 'switching' })) {
      await expect(lockDialog(page)).toHaveCount(0);
      await expect(page).toHaveURL(/\/dashboard/);
      await expect(logoutButton(page)).toBeVisible();
      if (at(s, { signedIn: 'active' }) || at(s, { signedIn: 'linkDown' })) {
        const userEmail = c.session?.user.id === staff.id ? w.world.staff.email : w.world.admin.email;
        await expect.poll(async () => (await stored(page))?.user.email ?? null).toBe(userEmail);
      }
      return;
    }
    throw new Error(`no check for state ${JSON.stringify(s.value)}`);
  },
};
