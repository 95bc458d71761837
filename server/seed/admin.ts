import { eq, sql } from 'drizzle-orm';
import { ALL_PERMISSION_NAMES, SUPER_ADMIN_ROLE } from '../../contract/permissions';
import type { DbOrTx } from '../db/client';
import { roles, users } from '../db/schema';
import type { PasswordHasher } from '../domain/passwords';

/** The built-in Super Admin role exists in every database (it holds every permission). */
export async function ensureSuperAdminRole(db: DbOrTx): Promise<number> {
  await db
    .insert(roles)
    .values({ name: SUPER_ADMIN_ROLE, permissions: [...ALL_PERMISSION_NAMES], builtIn: true })
    .onConflictDoNothing();
  const [role] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, SUPER_ADMIN_ROLE));
  return role!.id;
}

/**
 * The first admin from ADMIN_EMAIL / ADMIN_PASSWORD: created with the Super Admin role when no user
 * has that email; an existing account is left as it is (its password is not reset on every start).
 */
export async function ensureAdmin(
  db: DbOrTx,
  opts: { email: string; password: string; hasher: PasswordHasher },
): Promise<'created' | 'exists'> {
  const roleId = await ensureSuperAdminRole(db);
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${opts.email.trim().toLowerCase()}`);
  if (existing) return 'exists';
  const local = opts.email.split('@')[0] ?? 'Admin';
  await db.insert(users).values({
    email: opts.email.trim(),
    passwordHash: await opts.hasher.hash(opts.password),
    firstName: local.charAt(0).toUpperCase() + local.slice(1),
    lastName: 'Admin',
    userType: 'ADMIN',
    roleId,
  });
  return 'created';
}
