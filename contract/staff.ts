import { z } from 'zod';
import { MAX_ID } from './ids';
import { listQuerySchema } from './list';
import { emailField, optionalName, phoneField, securePasswordField } from './validation';

export const staffMessages = {
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  roleRequired: 'Role is required',
} as const;

export const staffUserSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  userRole: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  imageUrl: z.string().nullable(),
  userType: z.enum(['ADMIN', 'PARTNER']),
  partnerId: z.number().int().nullable(),
  organizationName: z.string().nullable(),
  accountStatus: z.enum(['ACTIVE', 'BLOCKED']),
  /** False until the invited member has set a password with the mailed code. */
  hasPassword: z.boolean(),
  createdAt: z.string(),
});
export type StaffUser = z.infer<typeof staffUserSchema>;

export const staffSortKeys = ['firstName', 'lastName', 'email', 'role', 'createdAt'] as const;
export const staffListQuerySchema = listQuerySchema.extend({ sortBy: z.enum(staffSortKeys).optional() });

/** GET /admin/user/admin-detail?userId= (staffId is accepted too). */
export const staffDetailQuerySchema = z
  .object({
    userId: z.coerce.number().int().positive().max(MAX_ID, { error: 'userId is out of range' }).optional(),
    staffId: z.coerce.number().int().positive().max(MAX_ID, { error: 'staffId is out of range' }).optional(),
  })
  .refine((q) => q.userId ?? q.staffId, { error: 'userId is required', path: ['userId'] });

const requiredName = (message: string) => optionalName.min(1, { error: message, abort: true });

const roleId = z.coerce
  .number({ error: staffMessages.roleRequired })
  .int({ error: staffMessages.roleRequired })
  .positive({ error: staffMessages.roleRequired })
  .max(MAX_ID, { error: 'roleId is out of range' });

/** POST /admin/user/new-admin-user: an invitation; the new member sets a password with a mailed code. */
export const inviteStaffBodySchema = z.object({
  firstName: z
    .string({ error: staffMessages.firstNameRequired })
    .pipe(requiredName(staffMessages.firstNameRequired)),
  lastName: z
    .string({ error: staffMessages.lastNameRequired })
    .pipe(requiredName(staffMessages.lastNameRequired)),
  email: emailField,
  roleId,
  /** Partner staff: the partner this member works for (sees and acts only there). */
  partnerId: z
    .number()
    .int()
    .positive()
    .max(MAX_ID, { error: 'partnerId is out of range' })
    .nullable()
    .optional(),
});
export type InviteStaffBody = z.infer<typeof inviteStaffBodySchema>;

/** PATCH /admin/user/update-admin-user. Only the fields sent are changed. */
export const updateStaffBodySchema = z.object({
  userId: z
    .number({ error: 'userId must be a number' })
    .int()
    .positive()
    .max(MAX_ID, { error: 'userId is out of range' }),
  firstName: requiredName(staffMessages.firstNameRequired).optional(),
  lastName: requiredName(staffMessages.lastNameRequired).optional(),
  password: securePasswordField.optional(),
  roleId: roleId.optional(),
  phone: phoneField.optional(),
});
export type UpdateStaffBody = z.infer<typeof updateStaffBodySchema>;

export const staffIdParamSchema = z.object({
  staffId: z.coerce
    .number({ error: 'staffId must be a number' })
    .int()
    .positive({ error: 'staffId must be a number' })
    .max(MAX_ID, { error: 'staffId is out of range' }),
});

/** The invitation mail: its text has a line 'Your set-password code is: ABCD2345' (valid 72 hours). */
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
  cannotDeleteSelf: 'You cannot delete your own account',
  lastSuperAdminDelete: 'The last Super Admin cannot be deleted',
  lastSuperAdminRole: 'The last Super Admin cannot be given another role',
  outranked: 'You cannot change a staff member who holds permissions you do not have',
  cannotGrant: 'You cannot give a role with permissions you do not hold',
} as const;
