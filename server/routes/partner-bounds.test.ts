import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Activity } from '../../contract/activities';
import { ALL_PERMISSION_NAMES } from '../../contract/permissions';
import { staffServerMessages } from '../../contract/staff';
import {
  createPartner,
  createRole,
  createSuperAdmin,
  createUser,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { partners, roles, users } from '../db/schema';
import { PARTNER_BLOCKED } from '../http/access';

/** Issue 28, defects 2 to 4: what partner staff may give, whose events they see, a blocked partner. */
const t = setupTestServer();
let root: { id: number; email: string; password: string };
let admin: string;
let partnerA: { id: number };
let partnerB: { id: number };
let everything: { id: number };
let partnerRole: { id: number };
let superAdminRoleId: number;

beforeAll(async () => {
  root = await createSuperAdmin(t.db);
  admin = (await signIn(t, root.email, root.password)).accessToken;
  partnerA = await createPartner(t.db, { organizationName: 'Bounds A' });
  partnerB = await createPartner(t.db, { organizationName: 'Bounds B' });
  everything = await createRole(t.db, 'Partner all (club role)', ALL_PERMISSION_NAMES);
  partnerRole = await createRole(t.db, 'Partner cashier', ['visits.view'], false, true);
  const [sa] = await t.db.select({ id: roles.id }).from(roles).where(eq(roles.builtIn, true));
  superAdminRoleId = sa!.id;
});

describe('defect 2: partner staff give partner roles only', () => {
  it('a club role (the Super Admin role too) is refused with 403 whatever their permissions; a partner role is given', async () => {
    // Holds the built-in role itself: every permission there is.
    const boss = await createUser(t.db, {
      roleId: superAdminRoleId,
      userType: 'PARTNER',
      partnerId: partnerA.id,
    });
    const token = (await signIn(t, boss.email, boss.password)).accessToken;
    for (const roleId of [superAdminRoleId, everything.id]) {
      const invite = await t.request('POST', '/admin/user/new-admin-user', {
        token,
        json: { firstName: 'Co', lastName: 'Worker', email: `co-${roleId}@bounds.test`, roleId },
      });
      expect(invite.status, invite.text).toBe(403);
      expect(invite.body.message).toBe(staffServerMessages.clubRoleByPartner);
      const self = await t.request('PATCH', '/admin/user/update-admin-user', {
        token,
        json: { userId: boss.id, roleId },
      });
      expect(self.status, self.text).toBe(403);
    }
    const ok = await t.request('POST', '/admin/user/new-admin-user', {
      token,
      json: { firstName: 'Co', lastName: 'Worker', email: 'co-ok@bounds.test', roleId: partnerRole.id },
    });
    expect(ok.status, ok.text).toBe(201);
  });

  it("the last Super Admin count holds club users only: a partner user with the role does not let the club's last one go", async () => {
    await createUser(t.db, { roleId: superAdminRoleId, userType: 'PARTNER', partnerId: partnerB.id });
    const other = await createRole(t.db, 'Club viewer', ['partners.view']);
    const demote = await t.request('PATCH', '/admin/user/update-admin-user', {
      token: admin,
      json: { userId: root.id, roleId: other.id },
    });
    expect(demote.status, demote.text).toBe(409);
    expect(demote.body.message).toBe(staffServerMessages.lastSuperAdminRole);
    const [still] = await t.db.select({ roleId: users.roleId }).from(users).where(eq(users.id, root.id));
    expect(still!.roleId).toBe(superAdminRoleId);
  });
});

describe('defect 3: events belong to the partner where they happened', () => {
  it("after a move from A to B, B's log and CSV do not show the events at A; A's still do", async () => {
    const mover = await createUser(t.db, {
      roleId: everything.id,
      userType: 'PARTNER',
      partnerId: partnerA.id,
      firstName: 'Mover',
      lastName: 'Person',
    });
    await signIn(t, mover.email, mover.password); // an event at A
    const watcherA = await createUser(t.db, {
      roleId: everything.id,
      userType: 'PARTNER',
      partnerId: partnerA.id,
    });
    const watcherB = await createUser(t.db, {
      roleId: everything.id,
      userType: 'PARTNER',
      partnerId: partnerB.id,
    });
    const moved = await t.request('PATCH', '/admin/user/update-admin-user', {
      token: admin,
      json: { userId: mover.id, partnerId: partnerB.id },
    });
    expect(moved.status, moved.text).toBe(200);
    const tokenA = (await signIn(t, watcherA.email, watcherA.password)).accessToken;
    const tokenB = (await signIn(t, watcherB.email, watcherB.password)).accessToken;
    const moverEvents = async (token: string) => {
      const res = await t.request<{ records: Activity[] }>(
        'GET',
        '/admin/user/activities?userType=PARTNER&pageSize=100&searchText=Mover',
        { token },
      );
      expect(res.status, res.text).toBe(200);
      return res.body.data!.records.filter((r) => r.user.id === mover.id);
    };
    expect(await moverEvents(tokenB)).toEqual([]);
    expect((await moverEvents(tokenA)).map((e) => e.action)).toEqual(['Signed in']);
    const csv = await t.request('GET', '/admin/user/activities/export?userType=PARTNER', { token: tokenB });
    expect(csv.status).toBe(200);
    expect(csv.text).not.toContain('Mover Person');
    await signIn(t, mover.email, mover.password); // now an event at B
    expect((await moverEvents(tokenB)).map((e) => e.action)).toEqual(['Signed in']);
  });
});

describe("defect 4: a blocked partner's staff and keys read but change nothing", () => {
  it('invites, keys, webhooks, exports and visits are 403 partner_blocked with the reason; reads work', async () => {
    const shop = await createPartner(t.db, { organizationName: 'Blocked shop' });
    const staff = await createUser(t.db, { roleId: everything.id, userType: 'PARTNER', partnerId: shop.id });
    const token = (await signIn(t, staff.email, staff.password)).accessToken;
    const made = await t.request<{ key: string }>('POST', `/admin/partners/${shop.id}/api-keys`, {
      token: admin,
      json: { name: 'Till', permissions: ['visits.view', 'visits.create'] },
    });
    expect(made.status, made.text).toBe(201);
    await t.db.update(partners).set({ accountStatus: 'BLOCKED' }).where(eq(partners.id, shop.id));
    const refused = [
      await t.request('POST', '/admin/user/new-admin-user', {
        token,
        json: { firstName: 'New', lastName: 'Hire', email: 'hire@bounds.test', roleId: partnerRole.id },
      }),
      await t.request('POST', `/admin/partners/${shop.id}/api-keys`, {
        token,
        json: { name: 'Another', permissions: ['visits.view'] },
      }),
      await t.request('POST', '/admin/webhooks', {
        token,
        json: { url: 'https://hooks.example.com/blocked', events: ['visit.recorded'] },
      }),
      await t.request('GET', `/admin/partners/visits/export?partnerId=${shop.id}`, { token }),
      await t.request('GET', '/admin/user/customers/export', { token }),
      await t.request('GET', `/admin/partners/visits/export?partnerId=${shop.id}`, {
        headers: { 'X-Api-Key': made.body.data!.key },
      }),
      await t.request('POST', '/user/visits', {
        headers: { 'X-Api-Key': made.body.data!.key },
        json: {
          partnerId: shop.id,
          customerId: 1,
          attendantName: 'Till',
          visitDate: '2026-03-01T10:00:00.000Z',
          items: [{ name: 'Tea', quantity: 1, price: 100 }],
        },
      }),
    ];
    for (const res of refused) {
      expect(res.status, res.text).toBe(403);
      expect(res.body.code).toBe('partner_blocked');
      expect(res.body.message).toBe(PARTNER_BLOCKED);
    }
    const reads = [
      await t.request('GET', `/admin/partners/visits?partnerId=${shop.id}`, { token }),
      await t.request('GET', '/admin/user/customers', { token }),
      await t.request('GET', `/admin/partners/visits?partnerId=${shop.id}`, {
        headers: { 'X-Api-Key': made.body.data!.key },
      }),
    ];
    for (const res of reads) expect(res.status, res.text).toBe(200);
  });
});
