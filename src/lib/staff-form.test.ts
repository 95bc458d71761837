import { describe, expect, it } from 'vitest';
import type { StaffUser } from '../../contract/staff';
import {
  editFormOf,
  editStaffFormSchema,
  emptyInviteForm,
  grantable,
  hasChanges,
  inviteStaffFormSchema,
  placementFor,
  toInviteBody,
  toStaffUpdate,
  withCurrentChoice,
  withPartnerRule,
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
  it('requires names, a valid email and a role (docs/product.md#validation)', () => {
    expect(
      messagesOf(
        inviteStaffFormSchema.safeParse({
          firstName: '',
          lastName: ' ',
          email: '',
          roleId: '',
          partnerId: '',
        }),
      ),
    ).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'required',
      roleId: 'Role is required',
    });
    expect(
      messagesOf(
        inviteStaffFormSchema.safeParse({
          firstName: 'A',
          lastName: 'B',
          email: 'x@',
          roleId: '2',
          partnerId: '',
        }),
      ),
    ).toEqual({
      email: 'pls provide a valid email',
    });
  });
});

describe('edit form', () => {
  it('checks the phone length with the product.md messages, and allows it empty', () => {
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
        {
          firstName: ' Adaeze ',
          lastName: '',
          password: 'Secret1',
          roleId: '3',
          phone: '08012345',
          partnerId: '',
        },
        staff,
      ),
    ).toEqual({ userId: 7, firstName: 'Adaeze', password: 'Secret1', roleId: 3 });
  });

  it('takes a phone as people write it, normalised; an emptied phone is sent empty to clear it (issue 22)', () => {
    const values = editFormOf(staff);
    expect(editStaffFormSchema.safeParse({ ...values, phone: '+234 803 123 4567' }).success).toBe(true);
    expect(messagesOf(editStaffFormSchema.safeParse({ ...values, phone: '0803 12x 4567' }))).toEqual({
      phone: 'Phone number may contain only digits, spaces, dashes, brackets and a leading +234',
    });
    expect(toStaffUpdate({ ...values, phone: '+234 (803) 123-4567' }, staff)).toEqual({
      userId: 7,
      phone: '08031234567',
    });
    expect(toStaffUpdate({ ...values, phone: ' 080-12345 ' }, staff)).toEqual({ userId: 7 });
    expect(toStaffUpdate({ ...values, phone: '' }, staff)).toEqual({ userId: 7, phone: '' });
  });
});

describe('partner staff are placed at a partner (issue 22)', () => {
  const roles = [
    { value: '2', label: 'Support', partnerRole: false, permissions: ['clients.view'] },
    { value: '5', label: 'Partner Staff', partnerRole: true, permissions: ['rewards.redeem'] },
    { value: '1', label: 'Super Admin', partnerRole: false, permissions: ['clients.view', 'roles.create'] },
  ];
  const placementOf = (own: number | null) => (roleId: string) =>
    placementFor(
      roles.find((r) => r.value === roleId),
      own,
    );

  it('a partner role chosen by club staff asks for the partner; a club role does not', () => {
    const schema = withPartnerRule(inviteStaffFormSchema, placementOf(null));
    const values = { ...emptyInviteForm, firstName: 'Kemi', lastName: 'Ade', email: 'kemi@shop.ng' };
    expect(messagesOf(schema.safeParse({ ...values, roleId: '5' }))).toEqual({
      partnerId: 'Choose the partner this staff member works at',
    });
    expect(schema.safeParse({ ...values, roleId: '5', partnerId: '9' }).success).toBe(true);
    expect(schema.safeParse({ ...values, roleId: '2' }).success).toBe(true);
    expect(toInviteBody({ ...values, roleId: '5', partnerId: '9' }, 'choose')).toMatchObject({
      roleId: 5,
      partnerId: 9,
    });
    expect(toInviteBody({ ...values, roleId: '2', partnerId: '9' }, 'none')).not.toHaveProperty('partnerId');
  });

  it('partner staff never choose: their partner is fixed and nothing is sent', () => {
    expect(placementOf(4)('5')).toBe('fixed');
    expect(placementOf(4)('2')).toBe('fixed');
    const schema = withPartnerRule(inviteStaffFormSchema, placementOf(4));
    const values = { ...emptyInviteForm, firstName: 'K', lastName: 'A', email: 'k@shop.ng', roleId: '5' };
    expect(schema.safeParse(values).success).toBe(true);
    expect(toInviteBody(values, 'fixed')).not.toHaveProperty('partnerId');
  });

  it('only the roles the inviter may give are offered', () => {
    expect(grantable(roles, ['clients.view', 'rewards.redeem']).map((r) => r.label)).toEqual([
      'Support',
      'Partner Staff',
    ]);
  });

  it('the edit form sends a new partner only for a partner role', () => {
    const values = { ...editFormOf(staff), roleId: '5', partnerId: '9' };
    expect(toStaffUpdate(values, staff, 'choose')).toEqual({ userId: 7, roleId: 5, partnerId: 9 });
    expect(toStaffUpdate(values, staff, 'none')).toEqual({ userId: 7, roleId: 5 });
    expect(toStaffUpdate(values, { ...staff, partnerId: 9 }, 'choose')).toEqual({ userId: 7, roleId: 5 });
  });

  it("the edit form keeps the member's current role or partner choosable, once", () => {
    const partners = [
      { value: '1', label: 'Mama Put' },
      { value: '2', label: 'Kilimanjaro' },
    ];
    expect(withCurrentChoice(partners, undefined)).toBe(partners);
    expect(withCurrentChoice(partners, { value: '2', label: 'Kilimanjaro' })).toBe(partners);
    expect(withCurrentChoice(partners, { value: '9', label: 'Closed Shop' })).toEqual([
      ...partners,
      { value: '9', label: 'Closed Shop' },
    ]);
  });
});
