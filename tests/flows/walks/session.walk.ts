import type { Locator, Page, Route } from '@playwright/test';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { LoginResponse, SessionUser } from '../../../contract/auth';
import { OUTBOX_MESSAGES } from '../../../src/lib/outbox';
import { SESSION_STORAGE_KEY } from '../../../src/lib/session-storage';
import { REFRESH_LOCK } from '../../../src/lib/tab-sync';
import { type SessionContext, sessionMachine } from '../../../src/machines/session.machine';
import type { FlowModel, FlowPath } from '../../model/flow-engine';
import { expect, type MachineWalk, type WalkContext } from '../walk-kit';

/**
 * The session walked in the browser: sign-in (the sign-in screen, and the dialog over a locked
 * session), a token the server rejects (the next list call answered 401 at the browser's edge, as an
 * access token past its lifetime is), the refresh let through to the real server, refused for real
 * (its refresh token used up from outside first) or with no answer (offline until the link is
 * back), sign-out (told, not told, or no answer within 5 s), the profile fetch and a profile saved,
 * a reload while locked, and other tabs of the same browser: a second SPA tab that refreshes or signs
 * out, and a plain page of the origin (the health JSON, no SPA) that holds the refresh lock
 * (navigator.locks) and writes the stored session as another tab would (newer tokens, the same ones
 * again, another user's, none). Sign-in, refresh and sign-out are held at the edge until the path
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
/** The session the model signs in with (another token than the 'Signed in' start's). */
const signedInNow = signedInAs(admin, 5);

/** How another tab's stored session relates to this tab's (what the other tab wrote). */
type Synced = 'newer' | 'same' | 'other';
const synced = (c: SessionContext, how: Synced) => ({
  type: 'session.synced',
  how,
  session:
    how === 'other'
      ? signedInAs(staff)
      : { ...(how === 'newer' ? next(c) : (c.session as LoginResponse)), queued: queuedOf(c) },
});

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
  if (at(s, { signedOut: 'loading' })) events.push(done('signIn', signedInNow), fail('signIn', refused));
  // The partner staff member's screens are walked elsewhere: their path ends once they are in.
  if (c.session?.user.id === staff.id) return events;
  if (at(s, { signedOut: 'wiping' })) events.push(done('wipeDevice'));
  if (at(s, { signedIn: 'active' })) {
    events.push({ type: 'token.rejected', token });
    // Nothing queued: a second tab can sign out (with edits queued it would ask first).
    if (queuedOf(c) === 0) {
      events.push({ type: 'session.logout' });
      events.push({ type: 'session.endedElsewhere', reason: 'logout' });
    }
    events.push(synced(c, 'newer'), synced(c, 'other'));
    events.push({ type: 'profile.updated', profile: { role: c.session?.user.role, permissions: [] } });
    // The profile fetch of the page that opened signed in (the 'Signed in' start's own token).
    if (c.profile === null && token === signedInAs(admin).accessToken)
      events.push(
        done('fetchProfile', { role: c.session?.user.role, permissions: [] }),
        fail('fetchProfile', noAnswer),
      );
  }
  // After one or two refreshes with no answer the next goes in 1 s, 2 s (those pauses are walked); after three, in
  // 4 s: the network returning, a call needing a token or another tab's refresh come first.
  if (at(s, { signedIn: 'linkDown' }) && c.refreshFailures < 3)
    events.push({ type: 'xstate.after.refreshBackoff.session.signedIn.linkDown' });
  if (at(s, { signedIn: 'linkDown' }) && c.refreshFailures >= 3)
    events.push({ type: 'link.online' }, { type: 'token.rejected', token }, synced(c, 'newer'));
  if (at(s, { signedIn: { refreshing: 'waitingForLock' } })) {
    events.push({ type: 'lock.acquired', stored: c.session });
    // Another tab holds the lock while this one waits (after a rejected token, not a backoff).
    if (c.refreshFailures === 0)
      events.push(
        { type: 'lock.acquired', stored: null },
        synced(c, 'newer'),
        synced(c, 'same'),
        synced(c, 'other'),
      );
  }
  if (at(s, { signedIn: { refreshing: 'calling' } })) {
    if (c.refreshFailures === 0) events.push(synced(c, 'same'));
    events.push(
      done('refreshTokens', next(c)),
      fail('refreshTokens', refused),
      fail('refreshTokens', noAnswer),
    );
  }
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
      return (e as { stored?: unknown }).stored === null
        ? 'another tab removes the stored session and frees the refresh lock'
        : 'this tab takes the refresh lock';
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
    case 'session.synced': {
      const how = (e as { how?: Synced }).how;
      return how === 'other'
        ? "another tab stores the partner staff member's session"
        : how === 'same'
          ? 'another tab stores the same tokens again'
          : 'another tab refreshes the tokens';
    }
    case 'profile.updated':
      return 'save the profile (Update Profile)';
    case 'xstate.error.actor.fetchProfile':
      return 'the profile fetch gets no answer';
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
    {
      label: 'Locked (the session expired with an edit saved), then a reload',
      input: { locked: { user: admin, queued: 1 } },
    },
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
      start: c.session?.accessToken === signedInAs(admin).accessToken,
    };
  },
  eventCase: (e) => {
    const ev = e as EventObject & { output?: LoginResponse; error?: { status?: number } };
    const how =
      (e as { how?: string; stored?: unknown }).how ??
      ((e as { stored?: unknown }).stored === null ? 'gone' : '');
    return `${e.type} ${ev.output?.user?.id ?? ''} ${ev.error?.status ?? ''} ${how}`;
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

/**
 * The list calls of the search a rejected token refused, by the page that made them: how many the
 * server answered 2xx (the call retried with the refreshed token).
 */
const retried = new WeakMap<Page, { search: string; answered: number }>();

/** The next list call of this page is answered 401, as a token past its lifetime is. */
async function rejectNextCall(page: Page, tag: string) {
  const search = `${tag} ${Date.now()}`;
  const record = { search, answered: 0 };
  const first = !retried.has(page);
  retried.set(page, record);
  if (first)
    page.on('response', (r) => {
      const url = new URL(r.url());
      const now = retried.get(page);
      if (now && url.pathname.endsWith('/api/v1/admin/partners') && r.ok())
        if (url.searchParams.get('searchText') === now.search) now.answered += 1;
    });
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
  await page.getByRole('searchbox').first().fill(search);
}

const stored = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('admin') ?? 'null') as LoginResponse | null);

/** A second tab of the same browser: it opens the partners list, its token is rejected, it refreshes. */
async function otherTabRefreshes(w: WalkContext) {
  const before = (await stored(w.page))?.refreshToken;
  const tab = await w.context.newPage();
  await tab.goto('/dashboard/partners');
  await rejectNextCall(tab, w.world.tag);
  // A second SPA tab boots, opens the list and refreshes: on a busy machine that passes 10 s.
  await expect.poll(async () => (await stored(tab))?.refreshToken, { timeout: 30_000 }).not.toBe(before);
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

/**
 * Another tab of the origin that is not the SPA (the health JSON: no session machine of its own):
 * it holds the refresh lock as a refreshing tab does, and writes the stored session as another tab
 * would. Held before the rejected token, so this tab waits for the lock.
 */
async function plainTab(w: WalkContext): Promise<Page> {
  const tab = await w.context.newPage();
  await tab.goto('/api/v1/health');
  return tab;
}

async function lockHolder(w: WalkContext): Promise<Page> {
  const tab = await plainTab(w);
  await tab.evaluate(
    (name) =>
      new Promise<void>((held) => {
        void navigator.locks.request(name, () => {
          held();
          return new Promise<void>((release) => {
            (window as unknown as { releaseLock: () => void }).releaseLock = release;
          });
        });
      }),
    REFRESH_LOCK,
  );
  w.data.holder = tab;
  return tab;
}

async function releaseLock(w: WalkContext) {
  const tab = w.data.holder as Page | undefined;
  if (!tab) return;
  delete w.data.holder;
  await tab.evaluate(() => (window as unknown as { releaseLock: () => void }).releaseLock());
  await tab.close();
}

/** What another tab writes to the stored session (a storage event in this tab). */
async function writeStored(w: WalkContext, how: Synced | 'gone') {
  const holder = w.data.holder as Page | undefined;
  const tab = holder ?? (await plainTab(w));
  let value: string | null = null;
  if (how === 'other') value = JSON.stringify(await w.api.freshSession(w.world.staff));
  else if (how === 'same')
    value = JSON.stringify(await stored(tab), null, 1); // the same session, written anew
  else if (how === 'newer') {
    const session = (await stored(tab)) as LoginResponse;
    const tokens = await w.api.call<{ accessToken: string; refreshToken: string }>(
      'POST',
      '/auth/refresh-token',
      { refreshToken: session.refreshToken },
    );
    value = JSON.stringify({ ...session, ...tokens });
  }
  await tab.evaluate(
    ([key, v]) => (v === null ? localStorage.removeItem(key) : localStorage.setItem(key, v)),
    [SESSION_STORAGE_KEY, value] as const,
  );
  if (!holder) await tab.close();
}

const path = (w: WalkContext) => w.data.path as FlowPath;
/** The path's next event (the one after the step being done). */
const following = (w: WalkContext) =>
  path(w).steps[Number(w.data.i)]?.event as (EventObject & Record<string, unknown>) | undefined;
/** Whether another tab is to hold the refresh lock while this one waits for it. */
const raceFollows = (w: WalkContext) => {
  const e = following(w);
  return e?.type === 'session.synced' || (e?.type === 'lock.acquired' && e.stored === null);
};

/** Who the next step says signs in: the staff member, the admin, or the admin with a wrong password. */
function credentialsFor(w: WalkContext) {
  const next = following(w) as (EventObject & { output?: LoginResponse }) | undefined;
  if (next?.type === 'xstate.error.actor.signIn')
    return { email: w.world.admin.email, password: `${w.world.admin.password}-wrong` };
  if (next?.output?.user.id === staff.id) return w.world.staff;
  return w.world.admin;
}

/** The session expires for real with an edit saved: the refresh is refused, the dialog asks. */
async function lockTheSession(w: WalkContext) {
  await queueAnEdit(w);
  await killRefreshToken(w);
  await rejectNextCall(w.page, w.world.tag);
  await expect(lockDialog(w.page)).toBeVisible();
}

/** The page's first profile fetch, held until the path says how it ends. */
function holdProfileFetch(w: WalkContext) {
  return w.page.route(
    (url) => url.pathname.endsWith('/api/v1/user/profile'),
    (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      w.data.profileFetch = route;
    },
    { times: 1 },
  );
}

async function settleProfileFetch(w: WalkContext, ok: boolean) {
  await expect.poll(() => Boolean(w.data.profileFetch), { message: 'a held profile fetch' }).toBe(true);
  const route = w.data.profileFetch as Route;
  await (ok ? route.continue() : route.abort('internetdisconnected'));
  const answered = await w.page
    .waitForResponse((r) => r.url().endsWith('/api/v1/user/profile'), { timeout: 15_000 })
    .catch(() => null);
  if (ok) expect(answered?.ok()).toBe(true);
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
    'session.locked session.endedElsewhere #0':
      'every tab of the browser is locked too (the lock is kept in localStorage, a new tab opens locked) and the dialog offers no sign-out: no other tab can end the session',
    'session.signedIn.refreshing.waitingForLock lock.acquired #0':
      "another tab's newer tokens reach this tab as a storage event (session.synced, walked) before that tab frees the lock; the lock finds them first only when that event comes late",
  },
  begin: async (w, p) => {
    w.data.path = p;
    w.data.i = 0;
    const input = p.start.input as { restored?: Marked | null; locked?: unknown };
    if (input.locked) {
      // Locked for real (an edit saved, the refresh refused), then the page reloads.
      await w.edge.passAll(true);
      await lockTheSession(w);
      await w.edge.passAll(false);
      await w.page.reload();
      return;
    }
    const restored = input.restored ?? null;
    if (p.steps.some((s) => /^xstate\.(done|error)\.actor\.fetchProfile$/.test(s.event.type)))
      await holdProfileFetch(w);
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
    w.data.sentAtStep = w.edge.sent;
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
        if (raceFollows(w)) await lockHolder(w);
        return rejectNextCall(page, w.world.tag);
      case 'xstate.done.actor.fetchProfile':
      case 'xstate.error.actor.fetchProfile':
        return settleProfileFetch(w, event.type.includes('.done.'));
      case 'profile.updated': {
        // Saved as it is: the walked deployment's admin keeps its own name and address.
        await page.goto('/dashboard/profile');
        await expect(page.getByLabel('Address')).toBeVisible();
        const saved = page.waitForResponse(
          (r) => r.url().endsWith('/api/v1/user/profile') && r.request().method() === 'PATCH',
        );
        await page.getByRole('button', { name: 'Update Profile' }).click();
        expect((await saved).ok()).toBe(true);
        return expect(page.getByText('Profile updated successfully')).toBeVisible();
      }
      case 'link.online':
        await w.context.setOffline(true);
        return w.context.setOffline(false);
      case 'session.synced': {
        const how = event.how as Synced;
        // In this tab's active state a real second SPA tab refreshes; in a race, the lock's holder writes.
        if (how === 'newer' && !w.data.holder) return otherTabRefreshes(w);
        await writeStored(w, how);
        if (how !== 'same') await releaseLock(w);
        return;
      }
      case 'session.endedElsewhere':
        return otherTabSignsOut(w);
      case 'session.logout':
        return logoutButton(page).click();
      case 'lock.acquired':
        // The lock's holder lets go (having removed the stored session, when the path says so).
        if (event.stored === null) await writeStored(w, 'gone');
        return releaseLock(w);
      // They happen by themselves: the pauses end, the wipe and the count are local.
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
    // Waiting for the refresh lock: still signed in, and no refresh goes while another tab holds it.
    if (at(s, { signedIn: { refreshing: 'waitingForLock' } })) {
      await expect(lockDialog(page)).toHaveCount(0);
      await expect(logoutButton(page)).toBeVisible();
      // With the lock free the tab takes it at once and refreshes (the next steps); while another
      // tab holds it, nothing is sent and the rejected call waits.
      if (!w.data.holder) return;
      expect(w.edge.sent - Number(w.data.sentAtStep ?? 0), 'no refresh sent').toBe(0);
      return expect(retried.get(page)?.answered ?? 0, 'the rejected call is not answered yet').toBe(0);
    }
    // The refresh was refused (the session expired): none is pending, and the server no longer
    // takes this tab's refresh token (the queued edits are counted locally, in an instant).
    if (at(s, 'ending')) {
      await held('refreshTokens', 0);
      const refreshToken = (await stored(page))?.refreshToken;
      if (!refreshToken) return expect(await stored(page)).toBeNull();
      const refusedNow = await w.api.call('POST', '/auth/refresh-token', { refreshToken }).then(
        () => null,
        (e: { status?: number }) => e.status ?? -1,
      );
      return expect(refusedNow, "the server refuses the page's refresh token").toBe(401);
    }
    if (at(s, 'locked') && !at(s, { locked: 'switching' })) {
      await expect(lockDialog(page)).toContainText(`Sign in again as ${w.world.admin.email}`);
      return expect(lockDialog(page).getByRole('button', { name: 'Sign in' })).toBeEnabled();
    }
    if (at(s, 'signedIn') || at(s, { locked: 'switching' })) {
      await expect(lockDialog(page)).toHaveCount(0);
      await expect(page).toHaveURL(/\/dashboard/);
      await expect(logoutButton(page)).toBeVisible();
      // Refreshed after a rejected token: the rejected call went again with the new token and the
      // server answered it.
      const last = path(w).steps[Number(w.data.i) - 1]?.event.type;
      if (at(s, { signedIn: 'active' }) && last === 'xstate.done.actor.refreshTokens')
        await expect
          .poll(() => retried.get(page)?.answered ?? 0, { message: 'the rejected call retried and answered' })
          .toBeGreaterThan(0);
      if (at(s, { signedIn: 'active' }) || at(s, { signedIn: 'linkDown' })) {
        const userEmail = c.session?.user.id === staff.id ? w.world.staff.email : w.world.admin.email;
        await expect.poll(async () => (await stored(page))?.user.email ?? null).toBe(userEmail);
      }
      return;
    }
    throw new Error(`no check for state ${JSON.stringify(s.value)}`);
  },
};
