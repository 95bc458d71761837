import { updatePasswordBodySchema } from '../../contract/auth';
import {
  confirmPasswordField,
  securePasswordField,
  withMatchingConfirmation,
} from '../../contract/validation';
import { z } from '../../contract/zod';

/** Reset by code (SPA-only form): the new password follows the change-password rules of SPEC section 5. */
export const resetPasswordFormSchema = withMatchingConfirmation(
  z.object({
    resetCode: updatePasswordBodySchema.shape.resetCode,
    newPassword: securePasswordField,
    confirmPassword: confirmPasswordField,
  }),
);
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;
