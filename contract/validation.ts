import { z } from './zod';

/** Shared field rules. Messages are the spec's (docs/product.md#validation), word for word. */
export const messages = {
  emailRequired: 'required',
  emailInvalid: 'pls provide a valid email',
  passwordRequired: 'Pls enter your password',
  oldPasswordRequired: 'Password is required',
  securePassword: 'Please create a secure password',
  confirmRequired: 'Confirm Password is required',
  passwordsMustMatch: 'Passwords must match',
  phoneTooShort: 'Phone number cannot be less than 7 digits',
  phoneTooLong: 'Phone number should not exceed 11 digits',
} as const;

export const MAX_PASSWORD_LENGTH = 256;

export const emailField = z.pipe(
  z
    .string({ error: messages.emailRequired })
    .check(
      z.trim(),
      z.minLength(1, { error: messages.emailRequired, abort: true }),
      z.maxLength(254, { error: messages.emailInvalid, abort: true }),
    ),
  z.email({ error: messages.emailInvalid }),
);

/** New passwords: at least 5 characters with a digit, a lowercase and an uppercase letter. */
export const securePasswordField = z.string({ error: messages.securePassword }).check(
  z.minLength(1, { error: messages.securePassword, abort: true }),
  z.maxLength(MAX_PASSWORD_LENGTH, {
    error: `Password must be at most ${MAX_PASSWORD_LENGTH} characters`,
    abort: true,
  }),
  z.refine((v) => v.length >= 5 && /\d/.test(v) && /[a-z]/.test(v) && /[A-Z]/.test(v), {
    error: messages.securePassword,
  }),
);

export const optionalName = z
  .string()
  .check(z.trim(), z.maxLength(100, { error: 'Must be at most 100 characters' }));

/** What a phone may hold besides digits (issue 22: '080-1234 567', '+234 (803) 123 4567'). */
export const PHONE_CHARACTERS_MESSAGE =
  'Phone number may contain only digits, spaces, dashes, brackets and a leading +234';

/**
 * A phone as people write it, in the one form the calls keep (docs/product.md#validation: 7 to 11 digits):
 * spaces, dashes, dots and brackets go, and a +234 prefix becomes the national 0
 * ('+234 803 123 4567' and '+234 (0)803-123-4567' → '08031234567'). Anything else is left for the
 * rules to name.
 */
export function normalisePhone(raw: string): string {
  const compact = raw.replace(/[\s\-().]/g, '');
  return compact.startsWith('+234') ? `0${compact.slice(4).replace(/^0/, '')}` : compact;
}

const phoneRules = (allowEmpty: boolean) =>
  z.string().check(
    z.overwrite(normalisePhone),
    z.refine((v) => /^\d*$/.test(v), { error: PHONE_CHARACTERS_MESSAGE, abort: true }),
    z.refine((v) => (allowEmpty && v === '') || v.length >= 7, { error: messages.phoneTooShort }),
    z.refine((v) => v.length <= 11, { error: messages.phoneTooLong }),
  );

/** A phone that must be given (partner add), normalised by `normalisePhone`. */
export const phoneField = phoneRules(false);

/** A phone that may be left empty: in an update an empty phone clears it (staff edit). */
export const optionalPhoneField = phoneRules(true);

export const confirmPasswordField = z
  .string({ error: messages.confirmRequired })
  .check(z.minLength(1, { error: messages.confirmRequired }));

/**
 * Adds 'Passwords must match' on confirmPassword. It is checked as soon as both fields hold text,
 * even while other fields of the form are still invalid (zod skips refinements on an object with
 * issues unless `when` says otherwise).
 */
export const withMatchingConfirmation = <
  T extends z.ZodMiniType<{ newPassword: string; confirmPassword: string }>,
>(
  schema: T,
) =>
  schema.check(
    z.refine((v) => v.newPassword === v.confirmPassword, {
      error: messages.passwordsMustMatch,
      path: ['confirmPassword'],
      when: (payload) => {
        const v = payload.value as { newPassword?: unknown; confirmPassword?: unknown } | null;
        return (
          typeof v?.newPassword === 'string' &&
          typeof v.confirmPassword === 'string' &&
          v.confirmPassword !== ''
        );
      },
    }),
  );
