import { z } from 'zod';
import {
  confirmPasswordField,
  MAX_PASSWORD_LENGTH,
  messages,
  optionalName,
  securePasswordField,
  withMatchingConfirmation,
} from './validation';

export const profileSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  profileImage: z.string().nullable(),
  imageUrl: z.string().nullable(),
  userType: z.enum(['ADMIN', 'PARTNER', 'CUSTOMER']),
  role: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  permissions: z.array(z.string()),
  createdAt: z.string(),
  /** The version an edit names in If-Match (contract/concurrency.ts); always sent by the server. */
  updatedAt: z.string().optional(),
});
export type Profile = z.infer<typeof profileSchema>;

/** Profile update: every field optional; the SPA sends only the non-empty ones. */
export const profileUpdateBodySchema = z
  .object({
    firstName: optionalName.min(1, { error: 'First name cannot be empty' }).optional(),
    lastName: optionalName.min(1, { error: 'Last name cannot be empty' }).optional(),
    address: z.string().trim().max(300, { error: 'Must be at most 300 characters' }).optional(),
    /** base64 image without a data-URL prefix (PNG, JPEG or WebP, at most 5 MiB decoded). */
    profileImage: z.string().max(7_000_000, { error: 'Image must be at most 5 MiB' }).optional(),
  })
  .strict();
export type ProfileUpdateBody = z.infer<typeof profileUpdateBodySchema>;

export const changePasswordBodySchema = z.object({
  oldPassword: z
    .string({ error: messages.oldPasswordRequired })
    .min(1, { error: messages.oldPasswordRequired })
    .max(MAX_PASSWORD_LENGTH),
  newPassword: securePasswordField,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

/** The SPA's change-password form adds a confirmation that never leaves the browser. */
export const changePasswordFormSchema = withMatchingConfirmation(
  changePasswordBodySchema.extend({ confirmPassword: confirmPasswordField }),
);
