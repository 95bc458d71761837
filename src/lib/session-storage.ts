import {
  type LoginResponse,
  loginResponseSchema,
  type SessionUser,
  sessionUserSchema,
  type TokenPair,
} from '../../contract/auth';
import { LOCKED_STORAGE_KEY, SESSION_STORAGE_KEY } from './session-keys';

export { LOCKED_STORAGE_KEY, SESSION_STORAGE_KEY };

const storage = (): Storage | null => (typeof localStorage === 'undefined' ? null : localStorage);

/** A stored session from its JSON text (localStorage or a `storage` event), or null when unreadable. */
export function parseStoredSession(raw: string | null | undefined): LoginResponse | null {
  if (!raw) return null;
  try {
    const parsed = loginResponseSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function readStoredSession(): LoginResponse | null {
  const raw = storage()?.getItem(SESSION_STORAGE_KEY);
  if (!raw) return null;
  const session = parseStoredSession(raw);
  // Unreadable data is dropped.
  if (!session) storage()?.removeItem(SESSION_STORAGE_KEY);
  return session;
}

export function writeStoredSession(session: LoginResponse): void {
  storage()?.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
}

/**
 * Stores a fresher copy of the user (role, permissions from a profile fetch) without touching the
 * stored tokens: another tab may have rotated them meanwhile, and writing this tab's older pair back
 * would hand the next refresh a token the server already rotated (a reuse, which revokes the session).
 */
export function writeStoredUser(user: SessionUser): void {
  const stored = readStoredSession();
  if (stored && stored.user.id === user.id) writeStoredSession({ ...stored, user });
}

export function clearStoredSession(): void {
  storage()?.removeItem(SESSION_STORAGE_KEY);
}

export const withTokens = (session: LoginResponse, tokens: TokenPair): LoginResponse => ({
  ...session,
  accessToken: tokens.accessToken,
  refreshToken: tokens.refreshToken,
});

/**
 * Issue 17: the session expired while edits of this user were queued on the device. The user (who,
 * how many edits) is kept under `admin-locked` so a reload still asks that user to sign in again.
 */
export interface LockedUser {
  user: SessionUser;
  queued: number;
}

export function readLockedUser(): LockedUser | null {
  try {
    const raw = storage()?.getItem(LOCKED_STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<LockedUser>;
    const user = sessionUserSchema.safeParse(parsed.user);
    if (!user.success || typeof parsed.queued !== 'number') return null;
    return { user: user.data, queued: parsed.queued };
  } catch {
    return null;
  }
}

export function writeLockedUser(locked: LockedUser): void {
  storage()?.setItem(LOCKED_STORAGE_KEY, JSON.stringify(locked));
}

export function clearLockedUser(): void {
  storage()?.removeItem(LOCKED_STORAGE_KEY);
}

/**
 * Issue 17: a sign-out the server could not be told of. Only the refresh token stays on the device
 * (under `admin-revoke`), to revoke the session when the link returns; nothing else of the user.
 */
export const REVOCATION_STORAGE_KEY = 'admin-revoke';

export function readPendingRevocations(): string[] {
  try {
    const parsed = JSON.parse(storage()?.getItem(REVOCATION_STORAGE_KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

export function writePendingRevocation(refreshToken: string): void {
  const all = readPendingRevocations();
  if (!all.includes(refreshToken)) all.push(refreshToken);
  storage()?.setItem(REVOCATION_STORAGE_KEY, JSON.stringify(all));
}

export function clearPendingRevocation(refreshToken: string): void {
  const rest = readPendingRevocations().filter((t) => t !== refreshToken);
  if (rest.length > 0) storage()?.setItem(REVOCATION_STORAGE_KEY, JSON.stringify(rest));
  else storage()?.removeItem(REVOCATION_STORAGE_KEY);
}
