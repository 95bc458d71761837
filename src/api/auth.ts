import {
  type LoginBody,
  type LoginResponse,
  loginResponseSchema,
  type TokenPair,
  tokenPairSchema,
  type UpdatePasswordBody,
} from '../../contract/auth';
import { z } from '../../contract/zod';
import { api } from './client';

/** Sign-in, token refresh, logout and the reset-code flow. Nothing here is cached by queries. */

export const authKeys = {
  all: ['auth'] as const,
};

export const login = (body: LoginBody): Promise<LoginResponse> =>
  api().post('/admin/auth/login', loginResponseSchema, { body, auth: 'none' });

export const refreshTokens = (refreshToken: string): Promise<TokenPair> =>
  api().post('/auth/refresh-token', tokenPairSchema, { body: { refreshToken }, auth: 'none' });

/** Best effort: the caller ignores failures. */
export const logout = async (accessToken: string): Promise<void> => {
  await api().post('/auth/logout', z.unknown(), { auth: { token: accessToken } });
};

/** Answers the same whether or not the email exists; resolves with the server's message. */
export const requestPasswordReset = async (email: string): Promise<string> =>
  (await api().send('POST', '/auth/password-reset-request', z.unknown(), { body: { email }, auth: 'none' }))
    .message;

export const updatePasswordWithCode = async (body: UpdatePasswordBody): Promise<string> =>
  (await api().send('PATCH', '/auth/update-password', z.unknown(), { body, auth: 'none' })).message;
