import {
  type InviteStaffBody,
  inviteStaffBodySchema,
  type StaffUser,
  staffMessages,
  type UpdateStaffBody,
} from '../../contract/staff';
import { normalisePhone, optionalPhoneField, securePasswordField } from '../../contract/validation';
import { z } from '../../contract/zod';

/** The invite form (SPEC section 5): names required, email required and valid, a role chosen. */
export const inviteStaffFormSchema = z.object({
  firstName: inviteStaffBodySchema.shape.firstName,
  lastName: inviteStaffBodySchema.shape.lastName,
  email: inviteStaffBodySchema.shape.email,
  roleId: z.string().check(z.minLength(1, { error: staffMessages.roleRequired })),
});
export type InviteStaffForm = { firstName: string; lastName: string; email: string; roleId: string };

export const emptyInviteForm: InviteStaffForm = { firstName: '', lastName: '', email: '', roleId: '' };

export const toInviteBody = (values: InviteStaffForm): InviteStaffBody => ({
  firstName: values.firstName.trim(),
  lastName: values.lastName.trim(),
  email: values.email.trim(),
  roleId: Number(values.roleId),
});

/**
 * The edit form: only the phone has rules (7 to 11 digits, written as people write it; empty clears
 * it); a new password must be secure.
 */
export const editStaffFormSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  password: z.union([z.literal(''), securePasswordField]),
  roleId: z.string(),
  phone: optionalPhoneField,
});
export type EditStaffForm = {
  firstName: string;
  lastName: string;
  password: string;
  roleId: string;
  phone: string;
};

export const editFormOf = (staff: StaffUser): EditStaffForm => ({
  firstName: staff.firstName,
  lastName: staff.lastName,
  password: '',
  roleId: staff.userRole ? String(staff.userRole.id) : '',
  phone: staff.phone ?? '',
});

/**
 * The update body: userId plus only the fields that differ from the record; names and password only
 * when non-empty; the phone normalised, and sent empty when the user emptied it (clears it).
 */
export function toStaffUpdate(values: EditStaffForm, staff: StaffUser): UpdateStaffBody {
  const body: UpdateStaffBody = { userId: staff.id };
  const firstName = values.firstName.trim();
  const lastName = values.lastName.trim();
  const phone = normalisePhone(values.phone);
  if (firstName && firstName !== staff.firstName) body.firstName = firstName;
  if (lastName && lastName !== staff.lastName) body.lastName = lastName;
  if (values.password) body.password = values.password;
  if (values.roleId && Number(values.roleId) !== staff.userRole?.id) body.roleId = Number(values.roleId);
  if (phone !== (staff.phone ?? '')) body.phone = phone;
  return body;
}

export const hasChanges = (body: UpdateStaffBody): boolean => Object.keys(body).length > 1;
