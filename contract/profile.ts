import { imageBase64Text } from './images';
import {
  confirmPasswordField,
  MAX_PASSWORD_LENGTH,
  messages,
  optionalName,
  securePasswordField,
  withMatchingConfirmation,
} from './validation';
import { z } from './zod';

export const profileSchema = z.object({
  id: z.int(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.nullable(z.string()),
  address: z.nullable(z.string()),
  profileImage: z.nullable(z.string()),
  imageUrl: z.nullable(z.string()),
  userType: z.enum(['ADMIN', 'PARTNER', 'CUSTOMER']),
  /** `builtIn`: the Super Admin role (the session takes the role from here, so it must say so too). */
  role: z.nullable(z.object({ id: z.int(), name: z.string(), builtIn: z.optional(z.boolean()) })),
  permissions: z.array(z.string()),
  /**
   * Partner staff's partner (null for club staff): whether it can issue, redeem and record visits,
   * and why not (the message every such call answers with its 409). Optional for older servers.
   */
  partner: z.optional(
    z.nullable(
      z.object({
        id: z.int(),
        organizationName: z.string(),
        status: z.enum(['ACTIVE', 'BLOCKED', 'DELETED']),
        canTransact: z.boolean(),
        inactiveReason: z.nullable(z.string()),
      }),
    ),
  ),
  createdAt: z.string(),
  /** The version an edit names in If-Match (contract/concurrency.ts); always sent by the server. */
  updatedAt: z.optional(z.string()),
});
export type Profile = z.infer<typeof profileSchema>;

/** Profile update: every field optional; the SPA sends only the non-empty ones. */
export const profileUpdateBodySchema = z.strictObject({
  firstName: z.optional(optionalName.check(z.minLength(1, { error: 'First name cannot be empty' }))),
  lastName: z.optional(optionalName.check(z.minLength(1, { error: 'Last name cannot be empty' }))),
  address: z.optional(
    z.string().check(z.trim(), z.maxLength(300, { error: 'Must be at most 300 characters' })),
  ),
  /** base64 image without a data-URL prefix (PNG, JPEG or WebP, at most 5 MiB decoded). */
  profileImage: z.optional(imageBase64Text()),
});
export type ProfileUpdateBody = z.infer<typeof profileUpdateBodySchema>;

/** Issue 22: a new password equal to the old one is refused, on the new password's field. */
export const PASSWORD_UNCHANGED_MESSAGE = 'The new password must be different from the old one';

const changePasswordFields = z.object({
  oldPassword: z
    .string({ error: messages.oldPasswordRequired })
    .check(z.minLength(1, { error: messages.oldPasswordRequired }), z.maxLength(MAX_PASSWORD_LENGTH)),
  newPassword: securePasswordField,
});

/** The rule on the server and in the form alike, checked as soon as both passwords hold text. */
const withNewPasswordChanged = <T extends z.ZodMiniType<{ oldPassword: string; newPassword: string }>>(
  schema: T,
) =>
  schema.check(
    z.refine((v) => v.newPassword !== v.oldPassword, {
      error: PASSWORD_UNCHANGED_MESSAGE,
      path: ['newPassword'],
      when: (payload) => {
        const v = payload.value as { oldPassword?: unknown; newPassword?: unknown } | null;
        return (
          typeof v?.oldPassword === 'string' && typeof v.newPassword === 'string' && v.oldPassword !== ''
        );
      },
    }),
  );

export const changePasswordBodySchema = withNewPasswordChanged(changePasswordFields);
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

/** The SPA's change-password form adds a confirmation that never leaves the browser. */
export const changePasswordFormSchema = withMatchingConfirmation(
  withNewPasswordChanged(z.extend(changePasswordFields, { confirmPassword: confirmPasswordField })),
);
