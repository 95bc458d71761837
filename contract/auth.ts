import { z } from 'zod';
import { emailField, MAX_PASSWORD_LENGTH, messages, securePasswordField } from './validation';

export const loginBodySchema = z.object({
  email: emailField,
  password: z
    .string({ error: messages.passwordRequired })
    .min(1, { error: messages.passwordRequired, abort: true })
    .max(MAX_PASSWORD_LENGTH, { error: `Password must be at most ${MAX_PASSWORD_LENGTH} characters` }),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const userTypeSchema = z.enum(['ADMIN', 'PARTNER', 'CUSTOMER']);
export type UserType = z.infer<typeof userTypeSchema>;

/** The signed-in staff member, as the login response carries it. */
export const sessionUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  userType: userTypeSchema,
  partnerId: z.number().int().nullable(),
  role: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  permissions: z.array(z.string()),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const tokenPairSchema = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type TokenPair = z.infer<typeof tokenPairSchema>;

/** Stored in localStorage under the key `admin` (SPEC section 3). */
export const loginResponseSchema = tokenPairSchema.extend({ user: sessionUserSchema });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const refreshBodySchema = z.object({
  refreshToken: z.string({ error: 'refreshToken is required' }).min(1, { error: 'refreshToken is required' }).max(512),
});

export const passwordResetRequestBodySchema = z.object({ email: emailField });

export const updatePasswordBodySchema = z.object({
  resetCode: z
    .string({ error: 'Reset code is required' })
    .trim()
    .min(1, { error: 'Reset code is required', abort: true })
    .max(64, { error: 'Reset code is invalid' }),
  newPassword: securePasswordField,
});
export type UpdatePasswordBody = z.infer<typeof updatePasswordBodySchema>;
