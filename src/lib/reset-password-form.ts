import { z } from 'zod';
import { updatePasswordBodySchema } from '../../contract/auth';
import { messages, securePasswordField } from '../../contract/validation';

/** Reset by code (SPA-only form): the new password follows the change-password rules of SPEC section 5. */
export const resetPasswordFormSchema = z
  .object({
    resetCode: updatePasswordBodySchema.shape.resetCode,
    newPassword: securePasswordField,
    confirmPassword: z
      .string({ error: messages.confirmRequired })
      .min(1, { error: messages.confirmRequired }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    error: messages.passwordsMustMatch,
    path: ['confirmPassword'],
  });
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;
