import { type LoginResponse, loginResponseSchema, type TokenPair } from '../../contract/auth';

/** SPEC section 3: the admin session lives in localStorage under the key `admin`. */
export const SESSION_STORAGE_KEY = 'admin';

const storage = (): Storage | null => (typeof localStorage === 'undefined' ? null : localStorage);

export function readStoredSession(): LoginResponse | null {
  const raw = storage()?.getItem(SESSION_STORAGE_KEY);
  if (!raw) return null;
  try {
    const parsed = loginResponseSchema.safeParse(JSON.parse(raw));
    if (parsed.success) return parsed.data;
  } catch {
    // fall through: unreadable data is dropped
  }
  storage()?.removeItem(SESSION_STORAGE_KEY);
  return null;
}

export function writeStoredSession(session: LoginResponse): void {
  storage()?.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
}

export function clearStoredSession(): void {
  storage()?.removeItem(SESSION_STORAGE_KEY);
}

export const withTokens = (session: LoginResponse, tokens: TokenPair): LoginResponse => ({
  ...session,
  accessToken: tokens.accessToken,
  refreshToken: tokens.refreshToken,
});
