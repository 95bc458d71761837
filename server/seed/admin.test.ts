import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestServer, signIn, testHasher } from '../../tests/setup/server';
import { roles } from '../db/schema';
import { ensureAdmin, ensureSuperAdminRole } from './admin';

const t = setupTestServer();

describe('first admin from ADMIN_EMAIL / ADMIN_PASSWORD', () => {
  it('creates a Super Admin once and leaves an existing account alone', async () => {
    const roleId = await ensureSuperAdminRole(t.db);
    expect(await ensureSuperAdminRole(t.db)).toBe(roleId);
    const [role] = await t.db.select().from(roles).where(eq(roles.id, roleId));
    expect(role).toMatchObject({ name: 'Super Admin', builtIn: true });

    expect(
      await ensureAdmin(t.db, { email: 'Boss@Club.ng', password: 'Boss#2026', hasher: testHasher }),
    ).toBe('created');
    expect(
      await ensureAdmin(t.db, { email: 'boss@club.ng', password: 'Other#2026', hasher: testHasher }),
    ).toBe('exists');
    const res = await t.request('POST', '/admin/auth/login', {
      json: { email: 'boss@club.ng', password: 'Boss#2026' },
    });
    expect(res.status).toBe(200);
    const tokens = await signIn(t, 'boss@club.ng', 'Boss#2026');
    expect((await t.request('GET', '/admin/user/stats', { token: tokens.accessToken })).status).toBe(200);
  });
});
