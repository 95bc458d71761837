import { describe, expect, it } from 'vitest';
import { refusal } from '../../tests/setup/refusal';
import type { AuthUser } from '../types';
import { assertPartnerScope, inPartnerScope, partnerScope, scopedPartnerId, staffUserId } from './scope';

const clubAdmin: AuthUser = {
  id: 5,
  email: 'admin@rewardclub.test',
  firstName: 'Ada',
  lastName: 'Obi',
  imageUrl: null,
  userType: 'ADMIN',
  partnerId: null,
  organizationName: null,
  role: { id: 1, name: 'Super Admin' },
  superAdmin: true,
  permissions: [],
  sessionId: 'fam-1',
};
const partnerStaff: AuthUser = { ...clubAdmin, id: 6, userType: 'PARTNER', partnerId: 12, superAdmin: false };

/** docs/product.md#partner-scope and decision 023: another partner's data does not exist for partner staff. */
describe('the partner scope', () => {
  it('club staff see every partner, partner staff their own only', () => {
    expect(partnerScope(clubAdmin)).toBeNull();
    expect(partnerScope(partnerStaff)).toBe(12);
    expect(inPartnerScope(clubAdmin, 12)).toBe(true);
    expect(inPartnerScope(clubAdmin, 99)).toBe(true);
    expect(inPartnerScope(partnerStaff, 12)).toBe(true);
    expect(inPartnerScope(partnerStaff, 99)).toBe(false);
  });

  it("another partner is 404 'Partner not found' (or the list's own words), never a 403", () => {
    expect(refusal(() => assertPartnerScope(partnerStaff, 99))).toEqual({
      status: 404,
      message: 'Partner not found',
    });
    expect(refusal(() => assertPartnerScope(partnerStaff, 99, 'Visit not found'))).toEqual({
      status: 404,
      message: 'Visit not found',
    });
    expect(refusal(() => assertPartnerScope(partnerStaff, 12))).toBeNull();
    expect(refusal(() => assertPartnerScope(clubAdmin, 99))).toBeNull();
  });

  it('a scoped call works on the own partner of partner staff, on the one named (or all) for club staff', () => {
    expect(scopedPartnerId(clubAdmin, 7)).toBe(7);
    expect(scopedPartnerId(clubAdmin, undefined)).toBeNull();
    expect(scopedPartnerId(partnerStaff, undefined)).toBe(12);
    expect(scopedPartnerId(partnerStaff, 12)).toBe(12);
    expect(refusal(() => scopedPartnerId(partnerStaff, 7))).toEqual({
      status: 404,
      message: 'Partner not found',
    });
  });

  it('the "done by" of a call is its staff member, none for a partner API key', () => {
    expect(staffUserId(clubAdmin)).toBe(5);
    expect(
      staffUserId({ ...partnerStaff, id: -3, apiKey: { id: 3, name: 'Till', kind: 'partner' } }),
    ).toBeNull();
  });
});
