import { emailField, MAX_PASSWORD_LENGTH, messages, securePasswordField } from './validation';
import { z } from './zod';

export const loginBodySchema = z.object({
  email: emailField,
  password: z.string({ error: messages.passwordRequired }).check(
    z.minLength(1, { error: messages.passwordRequired, abort: true }),
    z.maxLength(MAX_PASSWORD_LENGTH, {
      error: `Password must be at most ${MAX_PASSWORD_LENGTH} characters`,
    }),
  ),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const userTypeSchema = z.enum(['ADMIN', 'PARTNER', 'CUSTOMER']);
export type UserType = z.infer<typeof userTypeSchema>;

/** The signed-in staff member, as the login response carries it. */
export const sessionUserSchema = z.object({
  id: z.int(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  userType: userTypeSchema,
  partnerId: z.nullable(z.int()),
  /** `builtIn`: the Super Admin role (absent in sessions stored before it was sent). */
  role: z.nullable(z.object({ id: z.int(), name: z.string(), builtIn: z.optional(z.boolean()) })),
  permissions: z.array(z.string()),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const tokenPairSchema = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type TokenPair = z.infer<typeof tokenPairSchema>;

/** Stored in localStorage under the key `admin` (docs/product.md#entities). */
export const loginResponseSchema = z.extend(tokenPairSchema, { user: sessionUserSchema });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const refreshBodySchema = z.object({
  refreshToken: z
    .string({ error: 'refreshToken is required' })
    .check(z.minLength(1, { error: 'refreshToken is required' }), z.maxLength(512)),
});

export const passwordResetRequestBodySchema = z.object({ email: emailField });

/** The longest reset or set-password code the server reads (a longer one is invalid). */
export const RESET_CODE_MAX = 64;

export const updatePasswordBodySchema = z.object({
  resetCode: z
    .string({ error: 'Reset code is required' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'Reset code is required' }),
      z.maxLength(RESET_CODE_MAX, { error: 'Reset code is invalid' }),
    ),
  newPassword: securePasswordField,
});
export type UpdatePasswordBody = z.infer<typeof updatePasswordBodySchema>;

/** Server messages the SPA and e2e tests may rely on, word for word. */
export const authMessages = {
  loginSuccess: 'Login successful',
  invalidCredentials: 'Invalid email or password',
  accountBlocked: 'Your account has been blocked. Please contact an administrator.',
  /** Followed by a duration, e.g. 'Too many failed sign-in attempts. Try again in 15 minutes.' */
  tooManyAttemptsPrefix: 'Too many failed sign-in attempts.',
  /** Followed by a duration, like the sign-in one (429, per email and per client address). */
  tooManyResetRequestsPrefix: 'Too many reset code requests.',
  /** Followed by a duration (429, wrong reset codes per client address). */
  tooManyResetCodesPrefix: 'Too many wrong reset codes.',
  refreshed: 'Token refreshed',
  refreshInvalid: 'Refresh token is invalid or has expired',
  loggedOut: 'Logged out',
  resetRequested: 'If that email is registered, a reset code has been sent.',
  resetCodeInvalid: 'Reset code is invalid or has expired',
  passwordUpdated: 'Password updated successfully',
  oldPasswordIncorrect: 'Old password is incorrect',
  /** Followed by ' Try again in 15 minutes.' (429 on the change-password call, field oldPassword). */
  tooManyPasswordAttemptsPrefix: 'Too many wrong passwords.',
  unauthenticated: 'Authentication required',
  sessionInvalid: 'Session is invalid or has expired',
  forbidden: 'You do not have permission to do this',
} as const;

/** The subject of the reset mail; its text has a line 'Your reset code is: ABCD2345'. */
export const RESET_MAIL_SUBJECT = 'Your Reward Club password reset code';
