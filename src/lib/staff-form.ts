import {
  type InviteStaffBody,
  inviteStaffBodySchema,
  type StaffUser,
  staffMessages,
  staffServerMessages,
  type UpdateStaffBody,
} from '../../contract/staff';
import { normalisePhone, optionalPhoneField, securePasswordField } from '../../contract/validation';
import { z } from '../../contract/zod';

/** The invite form (docs/product.md#validation): names required, email required and valid, a role chosen. */
export const inviteStaffFormSchema = z.object({
  firstName: inviteStaffBodySchema.shape.firstName,
  lastName: inviteStaffBodySchema.shape.lastName,
  email: inviteStaffBodySchema.shape.email,
  roleId: z.string().check(z.minLength(1, { error: staffMessages.roleRequired })),
  partnerId: z.string(),
});
export type InviteStaffForm = {
  firstName: string;
  lastName: string;
  email: string;
  roleId: string;
  /** The partner select (partner roles only; fixed for partner staff, who send none). */
  partnerId: string;
};

export const emptyInviteForm: InviteStaffForm = {
  firstName: '',
  lastName: '',
  email: '',
  roleId: '',
  partnerId: '',
};

/**
 * Where the staff forms place a member (issue 22): `choose` when the inviter picks a partner (a
 * partner role chosen by club staff), `fixed` for partner staff (their own partner, sent by nobody:
 * the server places there), `none` for a club role.
 */
export type Placement = 'choose' | 'fixed' | 'none';

export const placementFor = (
  role: { partnerRole: boolean } | undefined,
  ownPartnerId: number | null,
): Placement => (ownPartnerId !== null ? 'fixed' : role?.partnerRole ? 'choose' : 'none');

/** A form schema that also asks for the partner when the chosen role's placement is 'choose'. */
export const withPartnerRule = <S extends z.ZodMiniType<{ roleId: string; partnerId: string }>>(
  schema: S,
  placementOf: (roleId: string) => Placement,
) =>
  schema.check(
    z.refine((v) => placementOf(v.roleId) !== 'choose' || v.partnerId !== '', {
      error: staffServerMessages.partnerRequired,
      path: ['partnerId'],
    }),
  );

/**
 * A select's choices with the member's current one added when it is not among them (the edit form:
 * a role beyond the first page of roles, a partner that is no longer active): still shown, still kept.
 */
export const withCurrentChoice = <O extends { value: string; label: string }>(
  options: readonly O[],
  current: { value: string; label: string } | undefined,
): readonly (O | { value: string; label: string })[] =>
  current && !options.some((o) => o.value === current.value) ? [...options, current] : options;

/** The roles an inviter may give: every permission of the role is their own (the server's rule). */
export const grantable = <R extends { permissions: string[] }>(roles: R[], own: readonly string[]): R[] =>
  roles.filter((role) => role.permissions.every((p) => own.includes(p)));

export const toInviteBody = (values: InviteStaffForm, placement: Placement): InviteStaffBody => ({
  firstName: values.firstName.trim(),
  lastName: values.lastName.trim(),
  email: values.email.trim(),
  roleId: Number(values.roleId),
  ...(placement === 'choose' ? { partnerId: Number(values.partnerId) } : {}),
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
  partnerId: z.string(),
});
export type EditStaffForm = {
  firstName: string;
  lastName: string;
  password: string;
  roleId: string;
  phone: string;
  partnerId: string;
};

export const editFormOf = (staff: StaffUser): EditStaffForm => ({
  firstName: staff.firstName,
  lastName: staff.lastName,
  password: '',
  roleId: staff.userRole ? String(staff.userRole.id) : '',
  phone: staff.phone ?? '',
  partnerId: staff.partnerId === null ? '' : String(staff.partnerId),
});

/**
 * The update body: userId plus only the fields that differ from the record; names and password only
 * when non-empty; the phone normalised, and sent empty when the user emptied it (clears it).
 */
export function toStaffUpdate(
  values: EditStaffForm,
  staff: StaffUser,
  placement: Placement = 'none',
): UpdateStaffBody {
  const body: UpdateStaffBody = { userId: staff.id };
  const firstName = values.firstName.trim();
  const lastName = values.lastName.trim();
  const phone = normalisePhone(values.phone);
  if (firstName && firstName !== staff.firstName) body.firstName = firstName;
  if (lastName && lastName !== staff.lastName) body.lastName = lastName;
  if (values.password) body.password = values.password;
  if (values.roleId && Number(values.roleId) !== staff.userRole?.id) body.roleId = Number(values.roleId);
  if (phone !== (staff.phone ?? '')) body.phone = phone;
  if (placement === 'choose' && values.partnerId && Number(values.partnerId) !== staff.partnerId) {
    body.partnerId = Number(values.partnerId);
  }
  return body;
}

export const hasChanges = (body: UpdateStaffBody): boolean => Object.keys(body).length > 1;
