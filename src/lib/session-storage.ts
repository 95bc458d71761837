import {
  type LoginResponse,
  loginResponseSchema,
  type SessionUser,
  type TokenPair,
} from '../../contract/auth';

/** SPEC section 3: the admin session lives in localStorage under the key `admin`. */
export const SESSION_STORAGE_KEY = 'admin';

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
