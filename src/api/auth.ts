import type { LoginBody, LoginResponse, TokenPair, UpdatePasswordBody } from '../../contract/auth';
import { apiData, apiMessage } from './call';
import { ApiError } from './client';

/** Sign-in, token refresh, logout and the reset-code flow. Nothing here is cached by queries. */

export const login = (body: LoginBody): Promise<LoginResponse> =>
  apiData('POST /admin/auth/login', { body, auth: 'none' });

export const refreshTokens = (refreshToken: string): Promise<TokenPair> =>
  apiData('POST /auth/refresh-token', { body: { refreshToken }, auth: 'none' });

export const logout = async (accessToken: string): Promise<void> => {
  await apiData('POST /auth/logout', { auth: { token: accessToken } });
};

/** A refusal (4xx other than 408/429): the server answered and said no. */
const refusedBy = (error: unknown) =>
  error instanceof ApiError &&
  error.status >= 400 &&
  error.status < 500 &&
  ![408, 429].includes(error.status);

/**
 * Ends a session on the server (issue 17): the logout call with the access token; when that token
 * has expired meanwhile (a deferred revocation), a refresh first and the logout with the new one.
 * Resolves once the server has revoked the session or refused its refresh token (it is dead
 * already); rejects when the server could not be told (no answer, 5xx): the caller keeps it for later.
 */
export async function revokeSession(tokens: { accessToken: string; refreshToken: string }): Promise<void> {
  if (tokens.accessToken) {
    try {
      await logout(tokens.accessToken);
      return;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) throw error;
    }
  }
  if (!tokens.refreshToken) return;
  let fresh: TokenPair;
  try {
    fresh = await refreshTokens(tokens.refreshToken);
  } catch (error) {
    if (refusedBy(error)) return;
    throw error;
  }
  await logout(fresh.accessToken);
}

/** A cheap call that tells whether the server answers at all (any answer but a 5xx counts). */
export async function probeServer(): Promise<boolean> {
  try {
    await apiData('GET /health', { auth: 'none', timeoutMs: 3000 });
    return true;
  } catch (error) {
    return error instanceof ApiError && error.status > 0 && error.status < 500;
  }
}

/** Answers the same whether or not the email exists; resolves with the server's message. */
export const requestPasswordReset = async (email: string): Promise<string> =>
  apiMessage('POST /auth/password-reset-request', { body: { email }, auth: 'none' });

export const updatePasswordWithCode = async (body: UpdatePasswordBody): Promise<string> =>
  apiMessage('PATCH /auth/update-password', { body, auth: 'none' });
