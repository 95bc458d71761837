import { fromCallback } from 'xstate';
import type { LoginResponse } from '../../contract/auth';
import { parseStoredSession, readStoredSession, SESSION_STORAGE_KEY } from './session-storage';

/**
 * How the tabs of one browser share a session (decision 009). The server rotates the refresh token
 * on every use and treats a second use of a rotated token as theft (the whole session is revoked),
 * so of several tabs that meet an expired access token only one may call refresh:
 * - the Web Locks API serialises refreshes across tabs; inside the lock a tab re-reads the stored
 *   session and takes tokens another tab already rotated instead of refreshing again;
 * - `storage` events carry newly stored tokens to the other tabs;
 * - a BroadcastChannel tells the other tabs that the session ended (sign-out, expiry), so each of
 *   them wipes its data and goes to the sign-in screen too.
 */

export const REFRESH_LOCK = 'reward-club-refresh';
export const SESSION_CHANNEL = 'reward-club-session';

export type EndReason = 'logout' | 'expired';

/** What the cross-tab actors report to the session machine. */
export type TabEvent =
  /** This tab holds the refresh lock; `stored` is the session in localStorage at that moment. */
  | { type: 'lock.acquired'; stored: LoginResponse | null }
  /** Another tab stored a session (new tokens, a fresher user). */
  | { type: 'session.synced'; session: LoginResponse }
  /** Another tab's session ended: this one ends too. */
  | { type: 'session.endedElsewhere'; reason: EndReason };

/** What the session machine asks the tab channel to tell the other tabs. */
export type TabAnnouncement = { type: 'tab.announceEnded'; reason: EndReason };

type LockManagerLike = Pick<LockManager, 'request'>;

/**
 * How long a tab that has just rotated the tokens keeps the refresh lock after storing them.
 * Chromium brings a localStorage write to the other tabs' renderers asynchronously, so a tab granted
 * the lock at once could still read the old session and refresh a second time (seen in
 * multi-tab.spec, decision 040). The tab that refreshed goes on at once; only the next tab's turn
 * waits, while the write reaches it.
 */
export const HANDOVER_MS = 200;

const browserLocks = (): LockManagerLike | null =>
  typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null;

/**
 * Holds the refresh lock while it runs (the session machine invokes it for as long as it refreshes)
 * and reports `lock.acquired` with the stored session read inside the lock. Stopping it releases
 * the lock, or withdraws the request if it was not granted yet. Without the Web Locks API (an
 * insecure context, jsdom) the lock is granted at once: a single tab needs no coordination.
 */
export const createRefreshLock = (locks: () => LockManagerLike | null = browserLocks) =>
  fromCallback<TabAnnouncement>(({ sendBack }) => {
    const withdraw = new AbortController();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let atGrant: LoginResponse | null | undefined;
    const granted = () => {
      atGrant = readStoredSession();
      sendBack({ type: 'lock.acquired', stored: atGrant } satisfies TabEvent);
      return held;
    };
    const manager = locks();
    if (manager) {
      manager.request(REFRESH_LOCK, { signal: withdraw.signal }, granted).catch(() => {
        // Withdrawn before it was granted: the machine no longer waits for it.
      });
    } else {
      void Promise.resolve().then(granted);
    }
    return () => {
      withdraw.abort();
      const now = atGrant === undefined ? undefined : readStoredSession();
      const rotated = now != null && now.refreshToken !== atGrant?.refreshToken;
      if (rotated) setTimeout(release, HANDOVER_MS);
      else release();
    };
  });

export const refreshLock = createRefreshLock();

const isEndReason = (value: unknown): value is EndReason => value === 'logout' || value === 'expired';

/**
 * The browser's channels between tabs: `storage` events for a newly stored session, a
 * BroadcastChannel for the end of the session (it carries the reason, which a removed key cannot).
 */
export const browserTabSync = fromCallback<TabAnnouncement>(({ sendBack, receive }) => {
  const onStorage = (event: StorageEvent) => {
    if (event.key !== SESSION_STORAGE_KEY) return;
    const session = parseStoredSession(event.newValue);
    if (session) sendBack({ type: 'session.synced', session } satisfies TabEvent);
  };
  window.addEventListener('storage', onStorage);
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SESSION_CHANNEL);
  if (channel) {
    channel.onmessage = (message: MessageEvent<unknown>) => {
      const data = message.data as { type?: unknown; reason?: unknown } | null;
      if (data?.type === 'ended' && isEndReason(data.reason)) {
        sendBack({ type: 'session.endedElsewhere', reason: data.reason } satisfies TabEvent);
      }
    };
  }
  receive((event) => {
    if (event.type === 'tab.announceEnded') channel?.postMessage({ type: 'ended', reason: event.reason });
  });
  return () => {
    window.removeEventListener('storage', onStorage);
    channel?.close();
  };
});

/** No other tabs (the machine's default; unit tests provide a shared fake bus). */
export const noTabSync = fromCallback<TabAnnouncement>(() => () => {});
