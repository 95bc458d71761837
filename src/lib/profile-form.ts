import type { ProfileUpdateBody } from '../../contract/profile';
import { optionalName } from '../../contract/validation';
import { z } from '../../contract/zod';

/**
 * docs/product.md#validation: firstName, lastName and address are optional; only non-empty fields are sent,
 * except that an address the user emptied is sent empty, which clears it (issue 22; decision 034).
 */
export const profileFormSchema = z.object({
  firstName: optionalName,
  lastName: optionalName,
  address: z.string().check(z.trim(), z.maxLength(300, { error: 'Must be at most 300 characters' })),
});
export type ProfileForm = z.infer<typeof profileFormSchema>;

export function toProfileUpdate(
  values: ProfileForm,
  current: { address: string | null },
  profileImage?: string | null,
): ProfileUpdateBody {
  const body: ProfileUpdateBody = {};
  const firstName = values.firstName.trim();
  const lastName = values.lastName.trim();
  const address = values.address.trim();
  if (firstName) body.firstName = firstName;
  if (lastName) body.lastName = lastName;
  if (address || current.address) body.address = address;
  if (profileImage) body.profileImage = profileImage;
  return body;
}
