import { RESET_CODE_MAX, updatePasswordBodySchema } from '../../contract/auth';
import {
  confirmPasswordField,
  securePasswordField,
  withMatchingConfirmation,
} from '../../contract/validation';
import { z } from '../../contract/zod';

/** Reset by code (SPA-only form): the new password follows the change-password rules of docs/product.md#validation. */
export const resetPasswordFormSchema = withMatchingConfirmation(
  z.object({
    resetCode: updatePasswordBodySchema.shape.resetCode,
    newPassword: securePasswordField,
    confirmPassword: confirmPasswordField,
  }),
);
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;

/** Shown when the link's code could not be one (too long, not text): it is left out, not an error. */
export const LINK_CODE_IGNORED =
  'The code in the link could not be read and was left out. Enter the code from your email.';

/**
 * `?code=` fills the code in (the mails' link). A code that cannot be one is ignored with a note,
 * never an error screen (issue 22). `?email=` (the mails' links carry the address) lets the new
 * password sign in at once; an address that is not one is left out.
 */
export const resetPasswordSearch = (
  search: Record<string, unknown>,
): { code?: string; codeIgnored?: true; email?: string } => {
  const email = z.email().safeParse(search.email);
  const out: { code?: string; codeIgnored?: true; email?: string } = email.success
    ? { email: email.data }
    : {};
  const code = search.code;
  if (code === undefined) return out;
  // A code of digits only arrives as a number from the router's JSON search parser.
  const text = typeof code === 'number' ? String(code) : code;
  return typeof text === 'string' && text.trim().length <= RESET_CODE_MAX
    ? { ...out, code: text.trim() }
    : { ...out, codeIgnored: true };
};
