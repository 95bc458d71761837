import { describe, expect, it } from 'vitest';
import type { StaffUser } from '../../contract/staff';
import {
  editFormOf,
  editStaffFormSchema,
  hasChanges,
  inviteStaffFormSchema,
  toStaffUpdate,
} from './staff-form';

const staff: StaffUser = {
  id: 7,
  firstName: 'Ada',
  lastName: 'Obi',
  email: 'ada@rewardclub.ng',
  phone: '08012345',
  userRole: { id: 2, name: 'Support', builtIn: false, permissions: ['dashboard.view'] },
  imageUrl: null,
  userType: 'ADMIN',
  partnerId: null,
  organizationName: null,
  accountStatus: 'ACTIVE',
  hasPassword: true,
  createdAt: '2026-01-01T00:00:00.000Z',
};

const messagesOf = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));

describe('invite form', () => {
  it('requires names, a valid email and a role (SPEC section 5)', () => {
    expect(
      messagesOf(inviteStaffFormSchema.safeParse({ firstName: '', lastName: ' ', email: '', roleId: '' })),
    ).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'required',
      roleId: 'Role is required',
    });
    expect(
      messagesOf(
        inviteStaffFormSchema.safeParse({ firstName: 'A', lastName: 'B', email: 'x@', roleId: '2' }),
      ),
    ).toEqual({
      email: 'pls provide a valid email',
    });
  });
});

describe('edit form', () => {
  it('checks the phone length with the SPEC messages, and allows it empty', () => {
    const values = editFormOf(staff);
    expect(messagesOf(editStaffFormSchema.safeParse({ ...values, phone: '123456' }))).toEqual({
      phone: 'Phone number cannot be less than 7 digits',
    });
    expect(messagesOf(editStaffFormSchema.safeParse({ ...values, phone: '123456789012' }))).toEqual({
      phone: 'Phone number should not exceed 11 digits',
    });
    expect(editStaffFormSchema.safeParse({ ...values, phone: '' }).success).toBe(true);
    expect(editStaffFormSchema.safeParse({ ...values, phone: '1234567' }).success).toBe(true);
  });

  it('asks for a secure password only when one is typed', () => {
    const values = editFormOf(staff);
    expect(editStaffFormSchema.safeParse(values).success).toBe(true);
    expect(messagesOf(editStaffFormSchema.safeParse({ ...values, password: 'abc' }))).toEqual({
      password: 'Please create a secure password',
    });
  });

  it('sends only the fields that changed and are not empty', () => {
    const unchanged = toStaffUpdate(editFormOf(staff), staff);
    expect(unchanged).toEqual({ userId: 7 });
    expect(hasChanges(unchanged)).toBe(false);
    expect(
      toStaffUpdate(
        { firstName: ' Adaeze ', lastName: '', password: 'Secret1', roleId: '3', phone: '08012345' },
        staff,
      ),
    ).toEqual({ userId: 7, firstName: 'Adaeze', password: 'Secret1', roleId: 3 });
  });
});
