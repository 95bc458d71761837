import { MAX_ID } from './ids';
import { defineList } from './list';
import { emailField, optionalName, optionalPhoneField, securePasswordField } from './validation';
import { z } from './zod';

export const staffMessages = {
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  roleRequired: 'Role is required',
} as const;

export const staffUserSchema = z.object({
  id: z.int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.nullable(z.string()),
  /** The role, whether it is the built-in Super Admin role, and what it grants (staffChangeRefusal). */
  userRole: z.nullable(
    z.object({ id: z.int(), name: z.string(), builtIn: z.boolean(), permissions: z.array(z.string()) }),
  ),
  imageUrl: z.nullable(z.string()),
  userType: z.enum(['ADMIN', 'PARTNER']),
  partnerId: z.nullable(z.int()),
  organizationName: z.nullable(z.string()),
  accountStatus: z.enum(['ACTIVE', 'BLOCKED']),
  /** False until the invited member has set a password with the mailed code. */
  hasPassword: z.boolean(),
  createdAt: z.string(),
});
export type StaffUser = z.infer<typeof staffUserSchema>;

/** GET /admin/user/admin-users (and /export). */
export const staffList = defineList({
  sortKeys: ['firstName', 'lastName', 'email', 'role', 'createdAt'],
  defaultSort: { sortBy: 'createdAt', sortOrder: 'desc' },
});
export const staffListQuerySchema = staffList.query;

/** GET /admin/user/admin-detail?userId= (staffId is accepted too). */
export const staffDetailQuerySchema = z
  .object({
    userId: z.optional(
      z.coerce.number().check(z.int(), z.positive(), z.maximum(MAX_ID, { error: 'userId is out of range' })),
    ),
    staffId: z.optional(
      z.coerce.number().check(z.int(), z.positive(), z.maximum(MAX_ID, { error: 'staffId is out of range' })),
    ),
  })
  .check(z.refine((q) => q.userId ?? q.staffId, { error: 'userId is required', path: ['userId'] }));

const requiredName = (message: string) => optionalName.check(z.minLength(1, { error: message, abort: true }));

const roleId = z.coerce
  .number({ error: staffMessages.roleRequired })
  .check(
    z.int({ error: staffMessages.roleRequired }),
    z.positive({ error: staffMessages.roleRequired }),
    z.maximum(MAX_ID, { error: 'roleId is out of range' }),
  );

/** The partner a member works at; null (update only) makes them club staff. */
const partnerId = z.optional(
  z.nullable(
    z
      .number({ error: 'partnerId must be a number' })
      .check(z.int(), z.positive(), z.maximum(MAX_ID, { error: 'partnerId is out of range' })),
  ),
);

/** POST /admin/user/new-admin-user: an invitation; the new member sets a password with a mailed code. */
export const inviteStaffBodySchema = z.object({
  firstName: z.pipe(
    z.string({ error: staffMessages.firstNameRequired }),
    requiredName(staffMessages.firstNameRequired),
  ),
  lastName: z.pipe(
    z.string({ error: staffMessages.lastNameRequired }),
    requiredName(staffMessages.lastNameRequired),
  ),
  email: emailField,
  roleId,
  /**
   * Partner staff: the partner this member works for (sees and acts only there). Required with a
   * partner role (Role.partnerRole); partner staff invite to their own partner whatever is sent.
   */
  partnerId,
});
export type InviteStaffBody = z.infer<typeof inviteStaffBodySchema>;

/**
 * PATCH /admin/user/update-admin-user. Only the fields sent are changed. `password` sets another
 * member's password; for one's own record it is refused (`ownPasswordInProfile`, decision 044).
 */
export const updateStaffBodySchema = z.object({
  userId: z
    .number({ error: 'userId must be a number' })
    .check(z.int(), z.positive(), z.maximum(MAX_ID, { error: 'userId is out of range' })),
  firstName: z.optional(requiredName(staffMessages.firstNameRequired)),
  lastName: z.optional(requiredName(staffMessages.lastNameRequired)),
  password: z.optional(securePasswordField),
  roleId: z.optional(roleId),
  /** Normalised ('+234 803 …' → '0803…'); an empty phone clears it. */
  phone: z.optional(optionalPhoneField),
  /** Moves the member to a partner (or, null, to the club); a partner role needs one. */
  partnerId,
});
export type UpdateStaffBody = z.infer<typeof updateStaffBodySchema>;

export const staffIdParamSchema = z.object({
  staffId: z.coerce
    .number({ error: 'staffId must be a number' })
    .check(
      z.int(),
      z.positive({ error: 'staffId must be a number' }),
      z.maximum(MAX_ID, { error: 'staffId is out of range' }),
    ),
});

/** The invitation mail (server/mail-templates.ts): a link, and a line 'Your set-password code is: ABCD2345'. */
export const INVITE_MAIL_SUBJECT = 'You are invited to Reward Club Admin';

/** Server answers of the staff calls the SPA and e2e tests may rely on, word for word. */
export const staffServerMessages = {
  invited: 'Invitation sent',
  updated: 'Staff member updated successfully',
  deleted: 'Staff member deleted successfully',
  notFound: 'Staff member not found',
  emailTaken: 'A user with this email already exists',
  roleNotFound: 'Role not found',
  partnerNotFound: 'Partner not found',
  /** A partner role given without a partner (issue 22): on the partnerId field. */
  partnerRequired: 'Choose the partner this staff member works at',
  cannotDeleteSelf: 'You cannot delete your own account',
  lastSuperAdminDelete: 'The last Super Admin cannot be deleted',
  lastSuperAdminRole: 'The last Super Admin cannot be given another role',
  outranked: 'You cannot change a staff member who holds permissions you do not have',
  cannotGrant: 'You cannot give a role with permissions you do not hold',
  clubRoleByPartner: 'Partner staff can give partner roles only',
  superAdminOnly: 'Only a Super Admin can change a Super Admin',
  /**
   * A password in a staff update of one's own record (decision 044): refused whole, on the password
   * field; one's own password is changed in the profile, with the current one.
   */
  ownPasswordInProfile: 'Change your own password in your profile, with your current password.',
} as const;

/** Who acts, as the staff rules see them: a Super Admin holds the built-in role. */
export interface StaffRuleParty {
  id: number;
  permissions: readonly string[];
  /** Undefined when not known (a session stored before it was sent): not refused on that ground. */
  superAdmin: boolean | undefined;
}

/** A listed member as the staff rules see them. */
export const staffParty = (staff: StaffUser): StaffRuleParty => ({
  id: staff.id,
  permissions: staff.userRole?.permissions ?? [],
  superAdmin: staff.userRole?.builtIn ?? false,
});

/**
 * Why `actor` may not change (update) or delete `target`, or null when the rules allow it: nobody
 * deletes themselves; nobody changes a member who holds permissions they lack; only a Super Admin
 * changes a Super Admin (a custom role holding every permission does not). The server applies it
 * (server/routes/staff.ts), the Users tab offers Edit and Delete only where it passes. The last active
 * Super Admin rule needs a count only the server has.
 */
export function staffChangeRefusal(
  actor: StaffRuleParty,
  target: StaffRuleParty,
  action: 'update' | 'delete',
): { status: 403 | 409; message: string } | null {
  if (actor.id === target.id) {
    return action === 'delete' ? { status: 409, message: staffServerMessages.cannotDeleteSelf } : null;
  }
  if (target.permissions.some((p) => !actor.permissions.includes(p))) {
    return { status: 403, message: staffServerMessages.outranked };
  }
  if (target.superAdmin === true && actor.superAdmin === false) {
    return { status: 403, message: staffServerMessages.superAdminOnly };
  }
  return null;
}
